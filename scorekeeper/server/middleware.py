"""Two of Django's middleware, doing on each request only what it uses (docs/decisions/0008)."""

from __future__ import annotations

from typing import Any

from django.contrib.messages import middleware as messages
from django.contrib.messages.storage import default_storage
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware import locale
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject, empty


class LocaleMiddleware(locale.LocaleMiddleware):
    """Django's (the cookie's language, else ``Accept-Language``'s), for addresses that carry
    none (no ``i18n_patterns``: a test says so). Django's tries each address's first segment
    as a language, "evenings" twice a request, never cached as it is none (a ninth of a poll)."""

    def process_request(self, request: HttpRequest) -> None:
        translation.activate(translation.get_language_from_request(request))
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> Any:
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
