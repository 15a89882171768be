"""Answers to a signed-in browser are its own: ``Cache-Control: private, no-store`` unless
the view sets its own caching, and ``X-SK-Account``, an opaque mark of the account, so that
the service worker drops its copies of pages when another person signs in on the phone.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.utils.crypto import salted_hmac

ACCOUNT_HEADER = "X-SK-Account"


def account_mark(user_pk: object) -> str:
    """The account's mark: the same for one account, unguessable from its id."""
    return salted_hmac("scorekeeper.server.account_mark", str(user_pk)).hexdigest()[:20]


def _a_page_or_a_file(response: HttpResponse) -> bool:
    if response.status_code in (204, 304):
        return False
    page = response.get("Content-Type", "").startswith("text/html")
    return page or response.has_header("Content-Disposition")


class PrivatePagesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not _a_page_or_a_file(response):
            return response  # no body: nothing to keep or mark
        user = getattr(request, "user", None)
        try:
            signed_in = bool(user is not None and user.is_authenticated)
        except DatabaseError:  # the session could not be read: the answer is a 503 already
            return response
        response.headers[ACCOUNT_HEADER] = account_mark(user.pk) if signed_in else ""
        if signed_in and "Cache-Control" not in response.headers:
            patch_cache_control(response, private=True, no_store=True)
        return response
