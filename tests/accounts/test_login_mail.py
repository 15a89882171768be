"""The sign-in mail: code and absolute link, plain text and HTML, in the person's language."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.core import mail
from django.test import Client

from accounts.models import LoginCode, LoginRequest

pytestmark = pytest.mark.django_db


def ask(**headers: str) -> mail.EmailMultiAlternatives:
    Client().post("/login/", {"email": "lea@example.com"}, **headers)
    return mail.outbox[-1]


def test_the_mail_holds_the_code_and_the_link_in_text_and_html() -> None:
    message = ask(HTTP_ACCEPT_LANGUAGE="en")
    assert message.to == ["lea@example.com"]
    code = re.search(r"\b(\d{6})\b", message.body).group(1)
    link = re.search(r"http://testserver/login/link/[\w-]+/", message.body).group(0)
    assert code in message.subject
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    assert code in html and f'href="{link}"' in html
    assert "Your sign-in code for Scorekeeper" in message.body
    assert "15 minutes" in message.body
    assert "&" not in message.body  # the text part is not HTML-escaped


def test_the_mail_is_in_french_by_default() -> None:
    message = ask()
    html = message.alternatives[0][0]
    assert message.extra_headers["Content-Language"] == "fr"
    assert '<html lang="fr">' in html
    assert re.search(r"\b\d{6}\b", message.body)
    assert "/login/link/" in message.body


def test_the_mail_is_in_russian_for_a_russian_browser() -> None:
    message = ask(HTTP_ACCEPT_LANGUAGE="ru")
    html = message.alternatives[0][0]
    assert message.extra_headers["Content-Language"] == "ru"
    assert '<html lang="ru">' in html
    assert re.search(r"\b\d{6}\b", message.body)
    assert "Content-Language: ru" in message.message().as_string()


def test_a_mail_that_cannot_be_sent_voids_its_code_and_says_so() -> None:
    with mock.patch(
        "django.core.mail.EmailMultiAlternatives.send", side_effect=OSError("no server")
    ):
        response = Client().post("/login/", {"email": "lea@example.com"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 503
    assert "could not be sent" in response.text
    assert LoginCode.objects.get().voided_at is not None
    assert not LoginRequest.objects.get().mail_sent
