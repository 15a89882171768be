"""Joining a club by its join link: the owner makes and revokes it; whoever opens it and
signs in becomes a member. A link that is unknown, expired or revoked gives 404.

Signing in from the link's page keeps the token in the session; the ``user_logged_in``
handler (scorekeeper/apps.py) then makes the member, and ``next`` brings them back here.
"""

from __future__ import annotations

import contextlib
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.models import JoinLink, Membership
from scorekeeper.screens.access import owner_membership_for

SESSION_KEY = "scorekeeper_join_token"


def join_after_sign_in(request: HttpRequest | None, user: object) -> None:
    """At sign-in: join the club whose link was opened before signing in, if it still works."""
    if request is None or not hasattr(request, "session"):
        return
    token = request.session.pop(SESSION_KEY, None)
    if isinstance(token, str):
        # Expired or revoked meanwhile: nothing to do, the link's page says so (404).
        with contextlib.suppress(services.ServiceError):
            services.join_with_link(token=token, user=user)


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
    link = JoinLink.usable().select_related("club").filter(token=token).first()
    if link is None:
        raise Http404
    club = link.club
    club_url = reverse("club", args=[club.pk])
    if request.user.is_authenticated:
        if Membership.objects.filter(club=club, user_id=request.user.pk).exists():
            messages.info(request, _("You are a member of %(club)s.") % {"club": club.name})
            return redirect(club_url)
        if request.method == "POST":
            services.join_with_link(token=token, user=request.user)
            messages.success(request, _("Welcome to %(club)s.") % {"club": club.name})
            return redirect(club_url)
    else:
        request.session[SESSION_KEY] = token
    login_url = reverse("accounts:login") + "?" + urlencode({"next": request.path})
    return render(request, "scorekeeper/clubs/join.html", {"club": club, "login_url": login_url})
