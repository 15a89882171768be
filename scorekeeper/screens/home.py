"""Thin function views: parse a form, call one service, render."""

from __future__ import annotations

from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from scorekeeper.models import Evening, Membership
from scorekeeper.screens.clubs.forms import ClubNameForm


@require_http_methods(["GET", "HEAD"])
def home(request: HttpRequest) -> HttpResponse:
    """The product page for visitors; a member's clubs and evenings in progress otherwise."""
    if not request.user.is_authenticated:
        return render(request, "scorekeeper/home.html")
    memberships = (
        Membership.objects.filter(user_id=request.user.pk)
        .select_related("club")
        .order_by(Lower("club__name"), "club_id")
    )
    evenings = (
        Evening.objects.filter(club__memberships__user_id=request.user.pk, closed_at__isnull=True)
        .select_related("club")
        .order_by("-date", "-created_at", "-pk")
    )
    context = {
        "memberships": list(memberships),
        "evenings_in_progress": list(evenings),
        "club_form": ClubNameForm(prefix="club"),
    }
    return render(request, "scorekeeper/home.html", context)
