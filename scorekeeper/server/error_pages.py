"""The error pages: Django's four error views, the bare 405 of ``require_http_methods`` and
the app's worded refusals (``Refusal``), each in the page's language and layout.

The error views never read the request's body (Django's ``requires_csrf_token`` would, and a
body it cannot parse raised inside the 404 page). ``500.html`` stands alone: no
``base.html``, request, context processor or database, so that it renders whatever failed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseServerError
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


class Refusal(Exception):
    """A request the app refuses for a reason the person may know, answered by
    ``ErrorPagesMiddleware`` with ``refused.html``; for what they may not know of, ``Http404``."""

    def __init__(self, message: str, *, status: int, back_url: str, back_label: str) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.back_url = back_url
        self.back_label = back_label


def error_page(
    request: HttpRequest, template: str, status: int, context: dict[str, Any] | None = None
) -> HttpResponse:
    """The page in the layout (the user, the language form); if the layout itself fails
    (the session or the database is what broke), the same page without the request."""
    context = {"status": status, "previous": _previous(request), **(context or {})}
    try:
        content = render_to_string(template, context, request)
    except Exception:
        logger.exception("The %s page failed with the request; rendered without it", status)
        content = render_to_string(template, context)
    return HttpResponse(content, status=status)


def _previous(request: HttpRequest) -> str:
    """The page before, when it is one of this site's other pages (its Referer), else ""."""
    referer = request.headers.get("Referer", "")
    try:
        parts = urlsplit(referer)
        same_site = parts.netloc == request.get_host()
    except Exception:  # a Host outside ALLOWED_HOSTS (a 400 page), a malformed address
        return ""
    if not same_site or parts.scheme not in ("http", "https"):
        return ""
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return "" if path == request.get_full_path() else path


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return error_page(request, "400.html", 400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return error_page(request, "403.html", 403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return error_page(request, "404.html", 404)


def server_error(request: HttpRequest) -> HttpResponse:
    return HttpResponseServerError(render_to_string("500.html"))


class ErrorPagesMiddleware:
    """The app's refusals and the bare 405 as pages in the layout (last in ``MIDDLEWARE``).
    A refused htmx request gets ``HX-Refresh``; a refused POST leaves its words as a message."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if isinstance(response, HttpResponseNotAllowed) and not response.content:
            page = error_page(request, "405.html", 405)
            page["Allow"] = response["Allow"]
            return page
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, Refusal):
            return None
        if getattr(request, "htmx", False):
            if request.method not in ("GET", "HEAD"):
                messages.error(request, exception.message, fail_silently=True)
            response = HttpResponse(exception.message, status=exception.status)
            response["HX-Refresh"] = "true"
            return response
        context = {
            "message": exception.message,
            "back_url": exception.back_url,
            "back_label": exception.back_label,
        }
        return error_page(request, "refused.html", exception.status, context)
