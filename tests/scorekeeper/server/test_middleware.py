"""Django's locale middleware as the app runs it: the page's language from the cookie, else the
browser's, with no language in any address."""

from __future__ import annotations

from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.test import Client


def test_the_language_is_the_cookies_else_the_browsers_and_the_answer_says_so(
    client: Client,
) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    chosen = client.get("/offline/", HTTP_ACCEPT_LANGUAGE="en")
    assert chosen["Content-Language"] == "ru"
    assert "Accept-Language" in chosen["Vary"]
    del client.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert client.get("/offline/", HTTP_ACCEPT_LANGUAGE="en")["Content-Language"] == "en"
    assert client.get("/offline/")["Content-Language"] == settings.LANGUAGE_CODE


def test_no_address_carries_a_language_which_the_locale_middleware_does_not_look_for() -> None:
    assert is_language_prefix_patterns_used(settings.ROOT_URLCONF) == (False, False)
