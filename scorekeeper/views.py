"""Thin function views: parse a form, call one service, render."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods


@require_http_methods(["GET", "HEAD"])
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "scorekeeper/home.html")
