"""One canonical form per address before it identifies an account.

IDNA 2003 (Python's own codec, used by the mail libraries) maps "straße" to "strasse", so
x@straße.test got its mail at x@strasse.test: two accounts, one mailbox. Fullwidth letters
and a trailing U+200B did the same.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from accounts.addresses import UnusableAddress, canonical_email, mail_address
from accounts.models import LoginRequest, User
from tests.factories import make_club

pytestmark = pytest.mark.django_db


def ask(email: str):
    return Client().post("/login/", {"email": email}, HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Ana@Example.COM ", "ana@example.com"),
        ("ｘ@ｓｔｒａｓｓｅ.test", "x@strasse.test"),  # fullwidth
        ("x@straße.test", "x@straße.test"),
        ("x@XN--STRAE-OQA.test", "x@straße.test"),  # its A-label
        ("x@example.com.", "x@example.com"),
    ],
)
def test_an_address_has_one_canonical_form(typed: str, stored: str) -> None:
    assert canonical_email(typed) == stored


@pytest.mark.parametrize(
    "typed",
    ["x@strasse.test\u200b", "x\u200d@example.com", "\ufeffx@example.com", "x@exa_mple.com",
     "x@-bad.test", "x@a..b", "no-at-sign", "x\u00ad@example.com"],
)  # fmt: skip
def test_what_cannot_be_normalised_is_refused(typed: str) -> None:
    with pytest.raises(UnusableAddress):
        canonical_email(typed)


def test_the_mail_for_strasse_with_eszett_goes_to_its_own_domain() -> None:
    assert ask("x@straße.test").status_code == 302
    assert mail.outbox[-1].to == ["x@xn--strae-oqa.test"]
    assert ask("x@strasse.test").status_code == 302
    assert mail.outbox[-1].to == ["x@strasse.test"]
    assert mail_address("x@straße.test") == "x@xn--strae-oqa.test"


def test_fullwidth_letters_are_the_same_account_as_ascii() -> None:
    User.objects.create_user("x@strasse.test")
    assert ask("ｘ@ｓｔｒａｓｓｅ.test").status_code == 302
    assert LoginRequest.objects.get().email == "x@strasse.test"
    assert mail.outbox[-1].to == ["x@strasse.test"]


def test_an_invisible_character_is_refused_with_a_clear_message() -> None:
    response = ask("x@strasse.test\u200b")
    assert response.status_code == 400
    assert "This address cannot be used" in response.text
    assert mail.outbox == []
    assert not LoginRequest.objects.exists()


def test_an_invitation_is_normalised_the_same_way(client: Client) -> None:
    club, _players = make_club()
    client.force_login(club.memberships.get().user)
    url = f"/clubs/{club.pk}/invitations/"
    refused = client.post(
        url, {"invitation-email": "dan@example.com\u200b"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "This address cannot be used" in refused.text
    assert not club.invitations.exists()
    client.post(url, {"invitation-email": "ｄａｎ@Example.com"})
    assert list(club.invitations.values_list("email", flat=True)) == ["dan@example.com"]
