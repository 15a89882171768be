"""Answers to a signed-in browser are its own: no shared or browser cache keeps them, and
the service worker learns whose they are.

- ``Cache-Control: private, no-store`` on every page and file answered to a signed-in
  request that does not set its own caching (club and evening pages, exports, the archive
  download): a proxy or
  the browser's disk cache never holds one person's scores for the next.
- ``X-SK-Account``: an opaque mark of the signed-in account (empty when nobody is): the
  service worker keeps the copies of pages for one account and drops them all when the
  mark changes (another person signed in on the same phone).
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
