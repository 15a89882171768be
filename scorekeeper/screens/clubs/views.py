"""The club pages: members, invitations and players (POST/redirect/GET, or the page again
with the errors next to the fields)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.models import Club, Invitation, JoinLink, Membership, Player
from scorekeeper.reads.tournaments import club_nights
from scorekeeper.screens import standings
from scorekeeper.screens.access import membership_for, owner_membership_for
from scorekeeper.screens.clubs.forms import (
    ClubNameForm,
    EveningPointsForm,
    InvitationForm,
    PlayerAddForm,
    PlayerEditForm,
)
from scorekeeper.screens.input_fields import refuse
from scorekeeper.server.wording import name_order
from scorekeeper.services import ServiceError

# --- Helpers ------------------------------------------------------------------------------


def _club_url(club: Club, section: str = "") -> str:
    url = reverse("club", args=[club.pk])
    return f"{url}#{section}" if section else url


def _players_context(club: Club) -> dict[str, Any]:
    players = sorted(club.players.select_related("user"), key=lambda p: name_order(p.name))
    return {
        "players_active": [player for player in players if not player.retired],
        "players_retired": [player for player in players if player.retired],
    }


def _club_page(
    request: HttpRequest, membership: Membership, **bound_forms: forms.Form
) -> HttpResponse:
    """The club page; ``bound_forms`` replace the empty forms to show errors."""
    club = membership.club
    members = sorted(
        club.memberships.select_related("user"),
        key=lambda m: (not m.is_owner, str(m.user).casefold()),
    )
    context: dict[str, Any] = {
        "club": club,
        "membership": membership,
        "is_owner": membership.is_owner,
        "members": members,
        # Whom the owner invited is the owner's business: members see no addresses.
        "invitations": (
            list(club.invitations.order_by(Lower("email"))) if membership.is_owner else []
        ),
        "evenings": club_nights(club.pk),
        "rename_form": ClubNameForm(initial={"name": club.name}, prefix="club"),
        "points_form": EveningPointsForm(
            prefix="points",
            initial={
                "enabled": club.evening_points,
                "scale": ", ".join(str(points) for points in club.evening_points_scale),
            },
        ),
        "invitation_form": InvitationForm(
            prefix="invitation", initial={"language": get_language()}
        ),
        "join_link": JoinLink.usable().filter(club=club).first() if membership.is_owner else None,
        "player_form": PlayerAddForm(prefix="player"),
        **_players_context(club),
    }
    context.update(standings.club_season_context(club))
    context.update(bound_forms)
    return render(request, "scorekeeper/clubs/club.html", context)


def _players_response(
    request: HttpRequest,
    membership: Membership,
    player_form: PlayerAddForm | None = None,
    *,
    focus: bool = False,
) -> HttpResponse:
    """The players section alone, for htmx requests; ``focus``: ready for the next name."""
    context = {
        "club": membership.club,
        "membership": membership,
        "is_owner": membership.is_owner,
        "player_form": player_form or PlayerAddForm(prefix="player"),
        "focus_player_name": focus,
        **_players_context(membership.club),
    }
    return render(request, "scorekeeper/clubs/club.html#players", context)


# --- Clubs --------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def club_new(request: HttpRequest) -> HttpResponse:
    form = ClubNameForm(request.POST if request.method == "POST" else None, prefix="club")
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(name=form.cleaned_data["name"], owner=request.user)
        except ServiceError as error:
            refuse(form, error)
        else:
            messages.success(request, _("The club %(name)s is ready.") % {"name": club.name})
            return redirect(_club_url(club))
    return render(request, "scorekeeper/clubs/new.html", {"form": form})


@require_http_methods(["GET", "HEAD"])
def club_detail(request: HttpRequest, club_id: int) -> HttpResponse:
    return _club_page(request, membership_for(request, club_id))


@require_http_methods(["POST"])
def club_rename(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = owner_membership_for(request, club_id)
    form = ClubNameForm(request.POST, prefix="club")
    if form.is_valid():
        try:
            services.club_rename(club=membership.club, name=form.cleaned_data["name"])
        except ServiceError as error:
            refuse(form, error)
        else:
            messages.success(request, _("The club is renamed."))
            return redirect(_club_url(membership.club))
    return _club_page(request, membership, rename_form=form)


@require_http_methods(["POST"])
def club_evening_points(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = owner_membership_for(request, club_id)
    form = EveningPointsForm(request.POST, prefix="points")
    if form.is_valid():
        services.club_set_evening_points(
            club=membership.club,
            enabled=form.cleaned_data["enabled"],
            scale=form.cleaned_data["scale"],
        )
        messages.success(request, _("The evening ranking points are saved."))
        return redirect(_club_url(membership.club, "evening-points"))
    return _club_page(request, membership, points_form=form)


@require_http_methods(["POST"])
def club_leave(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = membership_for(request, club_id)
    club = membership.club
    try:
        services.member_leave(membership=membership)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect(_club_url(club, "members"))
    messages.success(request, _("You have left %(name)s.") % {"name": club.name})
    return redirect("home")


# --- Invitations and members --------------------------------------------------------------


@require_http_methods(["POST"])
def invitation_create(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = owner_membership_for(request, club_id)
    form = InvitationForm(request.POST, prefix="invitation")
    if form.is_valid():
        try:
            invitation = services.invitation_create(
                club=membership.club, email=form.cleaned_data["email"], invited_by=request.user
            )
        except ServiceError as error:
            refuse(form, error)
        else:
            try:
                services.invitation_mail_send(
                    invitation=invitation,
                    invited_by=request.user,
                    language=form.cleaned_data["language"] or get_language(),
                    base_url=request.build_absolute_uri("/"),
                )
            except ServiceError as error:
                messages.warning(request, error.message)
            else:
                messages.success(
                    request,
                    _(
                        "%(email)s is invited and an e-mail is on its way: they join the club "
                        "when they sign in with this address."
                    )
                    % {"email": invitation.email},
                )
            return redirect(_club_url(membership.club, "members"))
    return _club_page(request, membership, invitation_form=form)


@require_http_methods(["POST"])
def invitation_withdraw(request: HttpRequest, club_id: int, invitation_id: int) -> HttpResponse:
    membership = owner_membership_for(request, club_id)
    invitation = get_object_or_404(Invitation, pk=invitation_id, club=membership.club)
    services.invitation_withdraw(invitation=invitation)
    messages.success(
        request, _("The invitation of %(email)s is withdrawn.") % {"email": invitation.email}
    )
    return redirect(_club_url(membership.club, "members"))


@require_http_methods(["POST"])
def member_remove(request: HttpRequest, club_id: int, membership_id: int) -> HttpResponse:
    membership = owner_membership_for(request, club_id)
    member = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, club=membership.club
    )
    try:
        services.member_remove(membership=member)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _(
                "%(name)s is no longer a member. The join link no longer lets them in; "
                "an invitation lets them back."
            )
            % {"name": member.user},
        )
    return redirect(_club_url(membership.club, "members"))


@require_http_methods(["GET", "HEAD", "POST"])
def member_make_owner(request: HttpRequest, club_id: int, membership_id: int) -> HttpResponse:
    """Hand over ownership: a confirmation page (GET), then the handover (POST)."""
    membership = owner_membership_for(request, club_id)
    member = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, club=membership.club
    )
    if member.pk == membership.pk:
        return redirect(_club_url(membership.club, "members"))
    if request.method == "POST":
        try:
            services.ownership_transfer(club=membership.club, to=member)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request, _("%(name)s is now the owner of the club.") % {"name": member.user}
            )
        return redirect(_club_url(membership.club, "members"))
    context = {"club": membership.club, "member": member}
    return render(request, "scorekeeper/clubs/member_make_owner.html", context)


# --- Players ------------------------------------------------------------------------------


@require_http_methods(["POST"])
def player_add(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = membership_for(request, club_id)
    form = PlayerAddForm(request.POST, prefix="player")
    if form.is_valid():
        try:
            player = services.player_add(club=membership.club, name=form.cleaned_data["name"])
        except ServiceError as error:
            refuse(form, error)
        else:
            if request.htmx:
                return _players_response(request, membership, focus=True)
            messages.success(request, _("%(name)s is added.") % {"name": player.name})
            return redirect(_club_url(membership.club, "players"))
    if request.htmx:
        return _players_response(request, membership, form, focus=True)
    return _club_page(request, membership, player_form=form)


@require_http_methods(["GET", "HEAD", "POST"])
def player_edit(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    membership = membership_for(request, club_id)
    club = membership.club
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id, club=club)
    player_name = player.name  # the heading keeps it while the form shows what was typed
    if request.method == "POST":
        form = PlayerEditForm(request.POST, club=club)
        if form.is_valid():
            try:
                services.player_update(
                    player=player,
                    name=form.cleaned_data["name"],
                    user=form.cleaned_data["user"],
                    licence=form.cleaned_data["licence"],
                )
            except ServiceError as error:
                refuse(form, error)
            else:
                messages.success(request, _("The player is saved."))
                return redirect(_club_url(club, "players"))
    else:
        initial = {"name": player.name, "user": player.user_id, "licence": player.licence}
        form = PlayerEditForm(initial=initial, club=club)
    context = {"club": club, "player": player, "player_name": player_name, "form": form}
    return render(request, "scorekeeper/seasons/player_edit.html", context)


def _player_retire(
    request: HttpRequest, club_id: int, player_id: int, *, retired: bool
) -> HttpResponse:
    membership = membership_for(request, club_id)
    player = get_object_or_404(Player, pk=player_id, club=membership.club)
    services.player_retire(player=player, retired=retired)
    if request.htmx:
        return _players_response(request, membership)
    if retired:
        message = _(
            "%(name)s is retired: kept in past score sheets, no longer offered at the table."
        )
    else:
        message = _("%(name)s is back among the active players.")
    messages.success(request, message % {"name": player.name})
    return redirect(_club_url(membership.club, "players"))


@require_http_methods(["POST"])
def player_retire(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    return _player_retire(request, club_id, player_id, retired=True)


@require_http_methods(["POST"])
def player_unretire(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    return _player_retire(request, club_id, player_id, retired=False)
