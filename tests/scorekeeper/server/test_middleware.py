"""Django's locale and messages middleware as the app runs them (server/middleware.py): the
page's language from the cookie, else the browser's; a message kept for the next request, and
no storage made by a request that uses none."""

from __future__ import annotations

from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.contrib import messages
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.utils.functional import empty

from scorekeeper.server.middleware import MessageMiddleware


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


def _request(**headers: str) -> HttpRequest:
    request = RequestFactory().get("/", **headers)
    request.session = SessionStore()
    return request


def test_a_message_is_kept_for_the_next_request_and_a_request_without_one_makes_no_storage() -> (
    None
):
    def adds(request: HttpRequest) -> HttpResponse:
        messages.success(request, "Deal 13 changed.")
        return HttpResponse()

    def shows(request: HttpRequest) -> HttpResponse:
        return HttpResponse(" ".join(str(m) for m in messages.get_messages(request)))

    kept = MessageMiddleware(adds)(_request()).cookies["messages"].value
    shown = MessageMiddleware(shows)(_request(HTTP_COOKIE=f"messages={kept}"))
    assert shown.content == b"Deal 13 changed."
    assert shown.cookies["messages"].value == ""  # read: the cookie is cleared
    quiet = _request(HTTP_COOKIE=f"messages={kept}")
    untouched = MessageMiddleware(lambda request: HttpResponse())(quiet)
    assert "messages" not in untouched.cookies  # still waiting for a page that shows it
    assert quiet._messages._wrapped is empty  # type: ignore[attr-defined]
