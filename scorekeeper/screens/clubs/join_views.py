"""Joining a club by its join link (the owner makes and revokes it): signed in, a tap joins;
signed out, only an offer to sign in (nothing kept in the session). An unknown, expired or
revoked link gives 404; a removed account is told how to come back.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.models import JoinLink, Membership
from scorekeeper.screens.access import owner_membership_for
from scorekeeper.services.joins import join_refused


@require_http_methods(["POST"])
def join_link_create(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = owner_membership_for(request, club_id)
    services.join_link_create(club=membership.club, created_by=request.user)
    messages.success(request, _("The join link is ready."))
    return redirect(reverse("club", args=[club_id]) + "#join-link")


@require_http_methods(["POST"])
def join_link_revoke(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = owner_membership_for(request, club_id)
    services.join_link_revoke(club=membership.club)
    messages.success(request, _("The join link no longer works."))
    return redirect(reverse("club", args=[club_id]) + "#join-link")


@require_http_methods(["GET", "HEAD", "POST"])
def club_join(request: HttpRequest, token: str) -> HttpResponse:
    link = get_object_or_404(JoinLink.usable().select_related("club"), token=token)
    club = link.club
    club_url = reverse("club", args=[club.pk])
    refused = ""
    if request.user.is_authenticated:
        if Membership.objects.filter(club=club, user_id=request.user.pk).exists():
            messages.info(request, _("You are a member of %(club)s.") % {"club": club.name})
            return redirect(club_url)
        if join_refused(club=club, user=request.user):
            refused = services.joins.removed_text()
        elif request.method == "POST":
            services.join_with_link(token=token, user=request.user)
            messages.success(request, _("Welcome to %(club)s.") % {"club": club.name})
            return redirect(club_url)
    login_url = reverse("accounts:login") + "?" + urlencode({"next": request.path})
    context = {"club": club, "login_url": login_url, "refused": refused}
    return render(request, "scorekeeper/clubs/join.html", context, status=403 if refused else 200)
