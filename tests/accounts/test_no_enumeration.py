"""Asking for a mail answers the same whether the address has an account or not."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db

KNOWN = "known@example.com"
UNKNOWN = "nobody@example.com"


def journey(email: str) -> list[tuple[int, str, str, list[str]]]:
    """Status, Location, page text (the address masked) and cookie names of each step."""
    client = Client()
    steps = []
    for response in (
        client.post("/login/", {"email": email}, HTTP_ACCEPT_LANGUAGE="en"),
        client.get("/login/code/", HTTP_ACCEPT_LANGUAGE="en"),
    ):
        text = response.text.replace(email, "ADDRESS")
        # The CSRF token is random on every page; mask it too.
        text = "\n".join(line for line in text.splitlines() if "csrf" not in line.lower())
        steps.append(
            (response.status_code, response.get("Location", ""), text, sorted(response.cookies))
        )
    return steps


def test_known_and_unknown_addresses_get_the_same_responses() -> None:
    User.objects.create_user(KNOWN, display_name="Known")
    assert journey(KNOWN) == journey(UNKNOWN)


def test_known_and_unknown_addresses_both_get_a_mail_of_the_same_shape() -> None:
    User.objects.create_user(KNOWN, display_name="Known")
    Client().post("/login/", {"email": KNOWN})
    Client().post("/login/", {"email": UNKNOWN})
    known, unknown = mail.outbox
    assert known.subject[6:] == unknown.subject[6:]  # only the code differs
    assert len(known.body.splitlines()) == len(unknown.body.splitlines())


def test_asking_creates_no_account() -> None:
    Client().post("/login/", {"email": UNKNOWN})
    assert not User.objects.filter(email=UNKNOWN).exists()
