"""Joining a club by its join link, and the invitation mails (language, hourly limits)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import MAILS_PER_ADDRESS
from scorekeeper import services
from scorekeeper.models import Club, Invitation, JoinLink, Membership
from tests.factories import make_club, make_user

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def owner() -> User:
    return make_user("ana@example.com", "Ana")


@pytest.fixture
def club(owner: User) -> Club:
    return make_club(owner)[0]


@pytest.fixture
def owner_client(client: Client, owner: User) -> Client:
    client.force_login(owner)
    return client


def test_a_new_join_link_revokes_the_old_one(club: Club, owner: User) -> None:
    first = services.join_link_create(club=club, created_by=owner)
    second = services.join_link_create(club=club, created_by=owner)
    assert list(JoinLink.usable().filter(club=club)) == [second]
    assert first.token != second.token


def test_a_signed_in_visitor_joins_with_a_tap_and_a_get_changes_nothing(
    club: Club, owner: User
) -> None:
    link = services.join_link_create(club=club, created_by=owner)
    zoe = make_user("zoe@example.com", "Zoé")
    client = Client()
    client.force_login(zoe)
    Invitation.objects.create(club=club, email="zoe@example.com", invited_by=owner)
    url = reverse("club_join", args=[link.token])
    assert client.get(url, **EN).status_code == 200
    assert not Membership.objects.filter(club=club, user=zoe).exists()
    response = client.post(url, **EN)
    assert response["Location"] == reverse("club", args=[club.pk])
    assert Membership.objects.get(club=club, user=zoe).role == "member"
    assert not Invitation.objects.exists()  # the invitation is spent too


def test_an_expired_revoked_or_unknown_link_gives_404(club: Club, owner: User) -> None:
    link = services.join_link_create(club=club, created_by=owner)
    client = Client()
    url = reverse("club_join", args=[link.token])
    assert client.get(url).status_code == 200
    JoinLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    assert client.get(url).status_code == 404
    fresh = services.join_link_create(club=club, created_by=owner)
    services.join_link_revoke(club=club)
    assert client.get(reverse("club_join", args=[fresh.token])).status_code == 404
    assert client.get(reverse("club_join", args=["nope"])).status_code == 404


def test_only_the_owner_makes_and_revokes_the_join_link(club: Club) -> None:
    member = make_user("ben@example.com", "Ben")
    club.memberships.create(user=member, role="member")
    client = Client()
    client.force_login(member)
    assert client.post(reverse("join_link_create", args=[club.pk])).status_code == 403
    assert client.post(reverse("join_link_revoke", args=[club.pk])).status_code == 403
    assert not JoinLink.objects.exists()


def test_the_owner_sees_the_join_link_as_a_qr_code(owner_client: Client, club: Club) -> None:
    owner_client.post(reverse("join_link_create", args=[club.pk]))
    html = owner_client.get(reverse("club", args=[club.pk]), **EN).content.decode()
    token = JoinLink.objects.get().token
    assert f"/join/{token}/" in html
    assert '<svg role="img" viewBox=' in html and "QR code of the join link" in html


def test_an_invitation_mail_goes_out_in_the_language_chosen(
    owner_client: Client, club: Club
) -> None:
    response = owner_client.post(
        reverse("club_invite", args=[club.pk]),
        {"invitation-email": "Dan@Example.com", "invitation-language": "ru"},
        **EN,
    )
    assert response.status_code == 302
    (message,) = mail.outbox
    assert message.to == ["dan@example.com"]
    assert message.subject == f"Ana приглашает вас в клуб {club.name}"
    assert message.extra_headers["Content-Language"] == "ru"
    assert f"/login/?next=%2Fclubs%2F{club.pk}%2F" in message.body


def test_invitation_mails_to_one_address_stop_at_the_sign_in_limit(
    owner_client: Client, club: Club
) -> None:
    url = reverse("club_invite", args=[club.pk])
    for _ in range(MAILS_PER_ADDRESS + 1):
        response = owner_client.post(
            url, {"invitation-email": "dan@example.com"}, follow=True, **EN
        )
    assert len(mail.outbox) == MAILS_PER_ADDRESS
    assert "Too many invitation mails in the last hour" in response.content.decode()
    assert Invitation.objects.filter(email="dan@example.com").count() == 1
