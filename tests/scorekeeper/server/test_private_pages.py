"""Answers to a signed-in browser carry ``Cache-Control: no-store`` and the account's mark."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.server.private_pages import ACCOUNT_HEADER, account_mark
from tests.factories import make_club, make_user, start_evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in():
    owner = make_user("tina@example.com", "Tina")
    club, players = make_club(owner, players=("Ana", "Ben", "Chloé", "Dan"))
    evening, _game = start_evening(club, players)
    client = Client()
    client.force_login(owner)
    return client, owner, club, evening


def test_private_pages_exports_and_the_archive_are_never_stored_by_a_cache(signed_in) -> None:
    client, _owner, club, evening = signed_in
    for url in (
        reverse("club", args=[club.pk]),
        reverse("evening", args=[evening.pk]),
        reverse("evening_export_csv", args=[evening.pk]),
        reverse("club_archive", args=[club.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url
        assert "private" in response["Cache-Control"], url


def test_every_answer_names_its_account_and_no_one_when_signed_out(signed_in) -> None:
    client, owner, club, _evening = signed_in
    response = client.get(reverse("club", args=[club.pk]))
    assert response[ACCOUNT_HEADER] == account_mark(owner.pk)
    other = make_user("bob@example.com", "Bob")
    assert account_mark(other.pk) != account_mark(owner.pk)
    assert str(owner.pk) not in response[ACCOUNT_HEADER]
    anonymous = Client().get("/")
    assert anonymous[ACCOUNT_HEADER] == ""
    assert "no-store" not in anonymous.get("Cache-Control", "")
