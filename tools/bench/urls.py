"""The URLs while ``manage.py benchmark`` runs: the site's, plus two reference pages.

Never the project's ROOT_URLCONF: the benchmark sets it with ``override_settings``.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from scorekeeper.urls import urlpatterns as site_urlpatterns


def bare(request: HttpRequest) -> HttpResponse:
    """A constant response: what the middleware alone costs."""
    return HttpResponse(b"ok", content_type="text/plain")


def minimal(request: HttpRequest) -> HttpResponse:
    """The base page with an empty body, rendered for the signed-in member."""
    return render(request, "base.html")


urlpatterns = [
    path("benchmark/bare/", bare, name="benchmark_bare"),
    path("benchmark/minimal/", minimal, name="benchmark_minimal"),
    *site_urlpatterns,
]
