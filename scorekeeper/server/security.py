"""Production headers and answers that no view gives: Permissions-Policy and the CSP on answers
with a body (django-csp), and 503 with a short page when the database cannot be reached."""

from __future__ import annotations

import logging
from collections.abc import Callable

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string

from scorekeeper.server.error_pages import error_page

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30


class PermissionsPolicyMiddleware:
    """Sends ``settings.PERMISSIONS_POLICY``: no camera, microphone, location... for any page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.header = ", ".join(
            f"{feature}=({' '.join(allowed)})"
            for feature, allowed in getattr(settings, "PERMISSIONS_POLICY", {}).items()
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.header and response.status_code != 304:  # as the CSP below: no body, no page
            response.headers.setdefault("Permissions-Policy", self.header)
        return response


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, which builds its header anew for every answer, except for
    a 304: no body, nothing the policy would govern (the page it revalidates has its own)."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.status_code == 304:
            return response
        return super().process_response(request, response)


class DatabaseUnavailableMiddleware:
    """A view that cannot reach the database (``OperationalError``, ``InterfaceError``) answers
    503 "try again in a moment", rendered without the database."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error("Database unavailable for %s: %s", request.path, exception)
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response["Cache-Control"] = "no-store"
        return response


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """The refusal of a missing or stale CSRF token: a page in the layout and the page's
    language, marked ``X-CSRF-Refused`` so that a phone keeps its offline deal waiting."""
    logger.warning("CSRF refused for %s: %s", request.path, reason)
    response = error_page(request, "403_csrf.html", 403)
    response["X-CSRF-Refused"] = "1"
    return response
