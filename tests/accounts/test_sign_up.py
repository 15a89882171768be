"""The first sign-in creates the account, asks for a display name, then goes on to `next`."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


def sign_in(client: Client, email: str, next_url: str = "") -> object:
    data = {"email": email, **({"next": next_url} if next_url else {})}
    assert client.post("/login/", data).status_code == 302
    code = re.search(r"\b(\d{6})\b", mail.outbox[-1].body).group(1)
    return client.post("/login/code/", {"code": code})


def test_the_first_sign_in_creates_the_account_and_asks_for_a_name(client: Client) -> None:
    response = sign_in(client, "Chloe.Dupont@Example.com")
    user = User.objects.get()
    assert user.email == "chloe.dupont@example.com"
    assert not user.has_usable_password()
    assert response["Location"] == "/welcome/"
    welcome = client.get("/welcome/", HTTP_ACCEPT_LANGUAGE="en")
    assert 'value="Chloe Dupont"' in welcome.text  # pre-filled from the address
    done = client.post("/welcome/", {"display_name": "  Chloé   D. "})
    assert done["Location"] == "/"
    user.refresh_from_db()
    assert user.display_name == "Chloé D."


def test_a_known_account_goes_straight_where_it_was_going(client: Client) -> None:
    User.objects.create_user("dan@example.com", display_name="Dan")
    response = sign_in(client, "dan@example.com", next_url="/clubs/3/?tab=players")
    assert response["Location"] == "/clubs/3/?tab=players"


def test_next_is_kept_through_the_whole_sign_up(client: Client) -> None:
    page = client.get("/login/?next=/clubs/3/")
    assert 'name="next" value="/clubs/3/"' in page.text
    response = sign_in(client, "eve@example.com", next_url="/clubs/3/")
    assert response["Location"] == "/welcome/?next=%2Fclubs%2F3%2F"
    welcome = client.get(response["Location"])
    assert 'name="next" value="/clubs/3/"' in welcome.text
    done = client.post("/welcome/", {"display_name": "Eve", "next": "/clubs/3/"})
    assert done["Location"] == "/clubs/3/"


@pytest.mark.parametrize(
    "next_url",
    ["https://evil.example/", "//evil.example/", "javascript:alert(1)", "http://testserver.evil/"],
)
def test_a_next_that_leaves_the_site_is_dropped(client: Client, next_url: str) -> None:
    page = client.get("/login/", {"next": next_url})
    assert '<input type="hidden" name="next"' not in page.text
    User.objects.create_user("fay@example.com")
    response = sign_in(client, "fay@example.com", next_url=next_url)
    assert response["Location"] == "/"
    assert client.post("/welcome/", {"display_name": "Fay", "next": next_url})["Location"] == "/"


def test_the_welcome_page_needs_a_signed_in_person(client: Client) -> None:
    response = client.get("/welcome/")
    assert response.status_code == 302
    assert response["Location"] == "/login/?next=/welcome/"


def test_a_blank_name_is_refused_next_to_the_field(client: Client) -> None:
    sign_in(client, "gus@example.com")
    response = client.post("/welcome/", {"display_name": "   "}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "Type a name." in response.text
    too_long = client.post("/welcome/", {"display_name": "x" * 101}, HTTP_ACCEPT_LANGUAGE="en")
    assert too_long.status_code == 400
    assert 'value="' + "x" * 101 + '"' in too_long.text


def test_a_bad_address_is_refused_next_to_the_field_and_kept(client: Client) -> None:
    response = client.post("/login/", {"email": "ana@"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "does not look like an e-mail address" in response.text
    assert 'value="ana@"' in response.text
    assert mail.outbox == []
    empty = client.post("/login/", {}, HTTP_ACCEPT_LANGUAGE="en")
    assert "Type your e-mail address." in empty.text


def test_the_address_field_suits_a_phone_keyboard(client: Client) -> None:
    page = client.get("/login/").text
    assert 'type="email"' in page
    assert 'autocomplete="email"' in page


def test_a_disabled_account_cannot_sign_in(client: Client) -> None:
    User.objects.create_user("hal@example.com", is_active=False)
    response = sign_in(client, "hal@example.com")
    assert response.status_code == 400
    assert "_auth_user_id" not in client.session
