"""The project's URLs and error views, with two pages that fail: one refused (403), one
broken (500), for the error pages' tests."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import path

from scorekeeper import urls


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


urlpatterns = [
    path("tests/forbidden/", forbidden),
    path("tests/broken/", broken),
    *urls.urlpatterns,
]
handler400 = urls.handler400
handler403 = urls.handler403
handler404 = urls.handler404
handler500 = urls.handler500
