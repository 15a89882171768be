"""Signing in with the link from the mail: on any device, but only by a POST."""

from __future__ import annotations

import datetime as dt
import re
from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import LoginCode, User

pytestmark = pytest.mark.django_db

EMAIL = "ben@example.com"


def ask(client: Client, email: str = EMAIL, next_url: str = "") -> str:
    """Ask for a mail from ``client``; return the path and query of the link it holds."""
    data = {"email": email, **({"next": next_url} if next_url else {})}
    assert client.post("/login/", data).status_code == 302
    link = re.search(r"https?://\S+/login/link/\S+", mail.outbox[-1].body).group(0)
    return link.split("://testserver", 1)[1]


def signed_in_email(client: Client) -> str | None:
    user_id = client.session.get("_auth_user_id")
    return User.objects.get(pk=user_id).email if user_id else None


def test_the_link_in_the_mail_is_absolute() -> None:
    Client().post("/login/", {"email": EMAIL})
    assert re.search(r"http://testserver/login/link/[\w-]{40,}/", mail.outbox[-1].body)


def test_a_scanner_opening_the_link_signs_nobody_in_and_spends_nothing() -> None:
    path = ask(Client())
    scanner = Client()
    for method in (scanner.get, scanner.head):
        response = method(path, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200
    assert "Continue" in scanner.get(path, HTTP_ACCEPT_LANGUAGE="en").text
    assert signed_in_email(scanner) is None
    row = LoginCode.objects.get()
    assert row.used_at is None and row.voided_at is None
    assert not User.objects.filter(email=EMAIL).exists()


def test_the_continue_button_signs_in_on_another_device() -> None:
    path = ask(Client())
    phone = Client()
    page = phone.get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert 'method="post"' in page.text
    response = phone.post(path)
    assert response.status_code == 302
    assert signed_in_email(phone) == EMAIL


def test_the_browser_that_asked_skips_the_continue_button(client: Client) -> None:
    path = ask(client)
    response = client.get(path)
    assert response.status_code == 302
    assert signed_in_email(client) == EMAIL
    assert LoginCode.objects.get().used_at is not None


def test_a_link_works_only_once() -> None:
    path = ask(Client())
    Client().post(path)
    again = Client()
    assert again.get(path, HTTP_ACCEPT_LANGUAGE="en").status_code == 410
    response = again.post(path, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 410
    assert "no longer works" in response.text
    assert signed_in_email(again) is None


def test_a_link_expires_after_an_hour_the_window_of_the_mail_limit() -> None:
    path = ask(Client())
    later = timezone.now() + dt.timedelta(minutes=61)
    phone = Client()
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert phone.get(path).status_code == 410
        assert phone.post(path).status_code == 410
    assert signed_in_email(phone) is None


def test_a_link_still_signs_in_after_its_code_expired() -> None:
    path = ask(Client())
    later = timezone.now() + dt.timedelta(minutes=59)
    phone = Client()
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert phone.post(path).status_code == 302
    assert signed_in_email(phone) == EMAIL


def test_every_link_in_the_mailbox_works_until_one_of_them_signs_in() -> None:
    asking = Client()
    older = ask(asking)
    newer = ask(asking)
    phone = Client()
    assert phone.post(older).status_code == 302
    assert signed_in_email(phone) == EMAIL
    assert Client().post(newer).status_code == 410


def test_five_wrong_codes_typed_in_a_browser_do_not_void_the_link_in_the_mailbox(
    client: Client,
) -> None:
    path = ask(client)
    code = re.search(r"\b(\d{6})\b", mail.outbox[-1].body).group(1)
    for _ in range(5):
        client.post("/login/code/", {"code": f"{(int(code) + 1) % 1_000_000:06d}"})
    assert client.post("/login/code/", {"code": code}).status_code == 400  # the code is void
    phone = Client()
    assert phone.post(path).status_code == 302
    assert signed_in_email(phone) == EMAIL


def test_an_unknown_token_shows_a_way_back_to_the_sign_in_page() -> None:
    response = Client().get("/login/link/not-a-real-token/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 410
    assert 'href="/login/"' in response.text


def test_the_link_carries_next_to_the_page_it_was_going_to() -> None:
    User.objects.create_user(EMAIL)
    path = ask(Client(), next_url="/clubs/7/")
    assert "next=%2Fclubs%2F7%2F" in path
    phone = Client()
    assert 'name="next" value="/clubs/7/"' in phone.get(path).text
    response = phone.post(path)
    assert response["Location"] == "/clubs/7/"


def test_a_next_pointing_elsewhere_is_ignored_on_the_link() -> None:
    User.objects.create_user(EMAIL)
    path = ask(Client())
    response = Client().post(path + "?next=https://evil.example/")
    assert response["Location"] == "/"
