"""Sessions: the key rotates at sign-in, sign-out is a POST, cookies are locked down."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db

EMAIL = "ivy@example.com"


def ask(client: Client) -> str:
    response = client.post("/login/", {"email": EMAIL})
    assert response.status_code == 302
    return re.search(r"\b(\d{6})\b", mail.outbox[-1].body).group(1)


def test_the_session_key_rotates_at_sign_in(client: Client) -> None:
    User.objects.create_user(EMAIL)
    code = ask(client)
    before = client.session.session_key
    assert before
    client.post("/login/code/", {"code": code})
    after = client.session.session_key
    assert after != before
    assert client.session["_auth_user_id"]


def test_sign_out_is_a_post(client: Client) -> None:
    user = User.objects.create_user(EMAIL)
    client.force_login(user)
    assert client.get("/logout/").status_code == 405
    assert "_auth_user_id" in client.session
    response = client.post("/logout/")
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "_auth_user_id" not in client.session


def test_the_header_offers_sign_in_or_sign_out(client: Client) -> None:
    anonymous = client.get("/", HTTP_ACCEPT_LANGUAGE="en").text
    assert 'href="/login/"' in anonymous and ">Sign in<" in anonymous
    client.force_login(User.objects.create_user(EMAIL, display_name="Ivy"))
    signed_in = client.get("/", HTTP_ACCEPT_LANGUAGE="en").text
    assert "Ivy" in signed_in
    assert re.search(r'<form method="post" action="/logout/"[^>]*>', signed_in)
    assert "Sign out" in signed_in


def test_cookies_are_http_only_same_site_lax_and_secure_without_debug(
    client: Client, settings
) -> None:
    settings.SESSION_COOKIE_SECURE = True  # what DEBUG off gives
    settings.CSRF_COOKIE_SECURE = True
    User.objects.create_user(EMAIL)
    asked = client.post("/login/", {"email": EMAIL})
    browser = asked.cookies["login_browser"]
    assert browser["httponly"] and browser["secure"]
    assert browser["samesite"] == "Lax"
    assert 0 < int(browser["max-age"]) <= 15 * 60
    code = re.search(r"\b(\d{6})\b", mail.outbox[-1].body).group(1)
    signed_in = client.post("/login/code/", {"code": code})
    session = signed_in.cookies["sessionid"]
    assert session["httponly"] and session["secure"]
    assert session["samesite"] == "Lax"
    csrf = client.get("/login/").cookies["csrftoken"]
    assert csrf["secure"] and csrf["samesite"] == "Lax"


def test_cookies_are_not_secure_in_development(client: Client, settings) -> None:
    settings.SESSION_COOKIE_SECURE = False  # what DEBUG on gives, for http://127.0.0.1
    asked = client.post("/login/", {"email": EMAIL})
    assert not asked.cookies["login_browser"]["secure"]


def test_the_admin_sends_anonymous_people_to_the_e_mail_sign_in(client: Client) -> None:
    response = client.get("/admin/", follow=True)
    assert response.redirect_chain[-1][0] == "/login/?next=/admin/"
    direct = client.get("/admin/login/?next=/admin/accounts/user/")
    assert direct["Location"] == "/login/?next=/admin/accounts/user/"
    outside = client.get("/admin/login/?next=https://evil.example/")
    assert outside["Location"] == "/login/?next=/admin/"


def test_staff_reach_the_admin_after_signing_in_by_e_mail(client: Client) -> None:
    User.objects.create_user(EMAIL, is_staff=True, is_superuser=True)
    client.post("/login/", {"email": EMAIL, "next": "/admin/"})
    code = re.search(r"\b(\d{6})\b", mail.outbox[-1].body).group(1)
    response = client.post("/login/code/", {"code": code})
    assert response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_the_admin_refuses_signed_in_people_who_are_not_staff(client: Client) -> None:
    client.force_login(User.objects.create_user(EMAIL))
    assert client.get("/admin/login/?next=/admin/").status_code == 403
