"""Signing in with the 6-digit code, in the browser tab that asked for it."""

from __future__ import annotations

import datetime as dt
import re
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts import services
from accounts.models import LoginCode, User

pytestmark = pytest.mark.django_db

EMAIL = "ana@example.com"


def ask(client: Client, email: str = EMAIL) -> str:
    """Ask for a mail from ``client`` and return the code it holds."""
    response = client.post("/login/", {"email": email})
    assert response.status_code == 302
    assert response["Location"] == "/login/code/"
    return re.search(r"\b(\d{6})\b", mail.outbox[-1].body).group(1)


def wrong(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


def signed_in_user(client: Client) -> User | None:
    user_id = client.session.get("_auth_user_id")
    return get_user_model().objects.get(pk=user_id) if user_id else None


def test_the_code_from_the_mail_signs_in_the_tab_that_asked(client: Client) -> None:
    User.objects.create_user(EMAIL)
    code = ask(client)
    response = client.post("/login/code/", {"code": code})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert signed_in_user(client).email == EMAIL


def test_the_code_may_be_typed_with_spaces(client: Client) -> None:
    code = ask(client)
    client.post("/login/code/", {"code": f" {code[:3]} {code[3:]} "})
    assert signed_in_user(client) is not None


def test_a_code_expires_after_15_minutes(client: Client) -> None:
    code = ask(client)
    later = timezone.now() + dt.timedelta(minutes=15, seconds=1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        response = client.post("/login/code/", {"code": code}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "no longer works" in response.text
    assert signed_in_user(client) is None


def test_a_code_still_works_just_before_15_minutes(client: Client) -> None:
    code = ask(client)
    later = timezone.now() + dt.timedelta(minutes=14, seconds=50)
    with mock.patch("django.utils.timezone.now", return_value=later):
        client.post("/login/code/", {"code": code})
    assert signed_in_user(client) is not None


def test_a_code_works_only_once(client: Client) -> None:
    code = ask(client)
    client.post("/login/code/", {"code": code})
    session = client.session  # signed in; put the same address back as pending
    session["accounts.login_pending"] = {"email": EMAIL, "next": ""}
    session.save()
    again = client.post("/login/code/", {"code": code}, HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 400
    assert "no longer works" in again.text
    token = re.search(r"/login/link/([\w-]+)/", mail.outbox[-1].body).group(1)
    assert Client().post(f"/login/link/{token}/").status_code == 410  # its link is spent too


def test_an_older_code_fails_once_a_newer_one_was_asked_for(client: Client) -> None:
    first = ask(client)
    second = ask(client)
    if first == second:  # one chance in a million: the test would prove nothing
        pytest.skip("the two random codes are equal")
    response = client.post("/login/code/", {"code": first}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert signed_in_user(client) is None
    client.post("/login/code/", {"code": second})
    assert signed_in_user(client) is not None


def test_a_wrong_code_says_how_many_tries_are_left(client: Client) -> None:
    code = ask(client)
    response = client.post("/login/code/", {"code": wrong(code)}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "That is not the code. 4 tries left." in response.text
    assert f'value="{wrong(code)}"' in response.text  # what was typed is kept
    assert LoginCode.objects.get().attempts == 1


def test_five_wrong_codes_void_the_code(client: Client) -> None:
    code = ask(client)
    for _ in range(5):
        response = client.post("/login/code/", {"code": wrong(code)}, HTTP_ACCEPT_LANGUAGE="en")
    assert "Too many wrong codes" in response.text
    assert LoginCode.objects.get().code_voided_at is not None
    right = client.post("/login/code/", {"code": code}, HTTP_ACCEPT_LANGUAGE="en")
    assert right.status_code == 400
    assert signed_in_user(client) is None


def test_the_code_does_not_work_in_another_browser(client: Client) -> None:
    code = ask(client)
    other = Client()
    session = other.session
    session["accounts.login_pending"] = {"email": EMAIL, "next": ""}
    session.save()
    response = other.post("/login/code/", {"code": code}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "asked for in another browser" in response.text
    assert signed_in_user(other) is None
    assert LoginCode.objects.get().attempts == 0


def test_codes_and_link_tokens_are_stored_hashed_never_in_clear(client: Client) -> None:
    code = ask(client)
    token = re.search(r"/login/link/([\w-]+)/", mail.outbox[-1].body).group(1)
    row = LoginCode.objects.get()
    stored = " ".join(str(value) for value in row.__dict__.values())
    assert code not in stored
    assert token not in stored
    assert len(row.code_hash) == len(row.link_token_hash) == 64


def test_codes_are_compared_in_constant_time(client: Client) -> None:
    code = ask(client)
    with mock.patch(
        "accounts.services.hmac.compare_digest", wraps=services.hmac.compare_digest
    ) as compare:
        client.post("/login/code/", {"code": code})
    assert compare.call_count >= 1
    assert signed_in_user(client) is not None


def test_a_code_that_is_not_six_digits_is_refused_next_to_the_field(client: Client) -> None:
    ask(client)
    response = client.post("/login/code/", {"code": "12ab"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "The code has 6 digits" in response.text
    assert 'value="12ab"' in response.text
    assert LoginCode.objects.get().attempts == 0


def test_the_code_page_without_a_pending_request_goes_back_to_the_address(
    client: Client,
) -> None:
    response = client.get("/login/code/")
    assert response.status_code == 302
    assert response["Location"] == "/login/"


def test_the_code_field_suits_a_phone_keyboard(client: Client) -> None:
    ask(client)
    page = client.get("/login/code/", HTTP_ACCEPT_LANGUAGE="en").text
    assert 'inputmode="numeric"' in page
    assert 'autocomplete="one-time-code"' in page
    assert EMAIL in page
