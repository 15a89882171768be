"""Two of Django's middleware, doing on each request only what it uses (docs/decisions/0009)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.contrib.messages import middleware as messages
from django.contrib.messages.storage import default_storage
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware import locale
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject, empty


class LocaleMiddleware(locale.LocaleMiddleware):
    """Django's (the cookie's language, else ``Accept-Language``'s), which without
    ``i18n_patterns`` no longer tries each address's first segment as a language: "evenings",
    twice a request, never cached as it is none (a ninth of an unchanged poll)."""

    def process_request(self, request: HttpRequest) -> None:
        if is_language_prefix_patterns_used(settings.ROOT_URLCONF)[0]:
            return super().process_request(request)
        translation.activate(translation.get_language_from_request(request))
        request.LANGUAGE_CODE = translation.get_language()
        return None

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        if is_language_prefix_patterns_used(settings.ROOT_URLCONF)[0]:
            return super().process_response(request, response)
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


class MessageMiddleware(messages.MessageMiddleware):
    """Django's, whose storage (a cookie signer, the session's) is made when the request first
    reads or adds a message: one that did neither has nothing to store (a twentieth of a poll)."""

    def process_request(self, request: HttpRequest) -> None:
        request._messages = SimpleLazyObject(lambda: default_storage(request))

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        storage = getattr(request, "_messages", None)
        if isinstance(storage, SimpleLazyObject) and storage._wrapped is empty:
            return response
        return super().process_response(request, response)
