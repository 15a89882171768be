"""The table: start an evening and its games, seat the players, follow the score live."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.models import Evening, Membership
from scorekeeper.screens.access import (
    evening_closed,
    evening_for,
    game_for,
    membership_for,
    owner_only,
)
from scorekeeper.screens.table.evening_forms import EveningStartForm, GameStartForm, SeatJoinForm
from scorekeeper.screens.table.evening_page import (
    carried_deal,
    carry_deal,
    evening_url,
    mark_sheet_changes,
    page_context,
    since_of,
)
from scorekeeper.screens.tournaments.closed_table import round_closed_answer
from scorekeeper.server import conditional
from scorekeeper.server.wording import name_order


def _game_chosen(form: GameStartForm) -> dict[str, Any]:
    """The game the form starts: who sits where, who deals first, which game."""
    names = ("players", "kind", "five_mode", "target")
    return {"first_dealer": form.cleaned_data["dealer"]} | {n: form.cleaned_data[n] for n in names}


@require_http_methods(["GET", "HEAD", "POST"])
def evening_new(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = membership_for(request, club_id)
    club = membership.club
    players = sorted(club.players.filter(retired=False), key=lambda p: name_order(p.name))
    form = EveningStartForm(request.POST or None, players=players)
    if request.method == "POST" and form.is_valid():
        try:
            evening = services.evening_start(
                club=club,
                created_by=request.user,
                date=form.cleaned_data["date"],
                place=form.cleaned_data["place"],
                **_game_chosen(form),
            )
        except services.ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect(evening_url(evening))
    return render(
        request,
        "scorekeeper/table/evening_new.html",
        {"club": club, "form": form, "players": players},
    )


@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Another game in the same evening: French Tarot or L'escopette."""
    evening, _membership = evening_for(request, evening_id)
    if evening.is_closed:
        raise evening_closed(evening)
    players = sorted(evening.club.players.filter(retired=False), key=lambda p: name_order(p.name))
    last = evening.games.order_by("-number").first()
    initial: dict[str, Any] = {}
    if last is not None:
        seated = [s.player for s in last.seats.filter(present=True).order_by("position")[:6]]
        for position, player in enumerate(seated, start=1):
            initial[f"seat_{position}"] = player.pk
        # One evening: the deal keeps turning round the table from game to game.
        if seated:
            dealer = services.next_dealer(last, seated)
            if dealer in seated:
                initial["first_dealer"] = seated.index(dealer) + 1
    form = GameStartForm(request.POST or None, players=players, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_start(evening=evening, **_game_chosen(form))
        except services.ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect(evening_url(evening, game))
    return render(
        request,
        "scorekeeper/table/game_new.html",
        {"evening": evening, "club": evening.club, "form": form, "players": players},
    )


@require_http_methods(["GET", "HEAD"])
def rules_escopette(request: HttpRequest) -> HttpResponse:
    return render(request, "scorekeeper/table/rules_escopette.html")


@require_http_methods(["GET", "HEAD"])
@round_closed_answer
def evening(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, membership = evening_for(request, evening_id)
    if carry_deal(request, evening):  # back from the counter: the address forgets the deal
        return redirect(evening_url(evening))
    context = page_context(request, evening, membership, carried=carried_deal(request, evening))
    return render(request, "scorekeeper/table/evening.html", context)


def _unchanged(request: HttpRequest, tag: str) -> HttpResponse | None:
    """304 when the poll names ``tag``, the version its page shows (If-None-Match), else None."""
    unchanged = conditional.unchanged(request, tag)
    if unchanged is None and request.GET.get("version") == tag:
        # Pages loaded before If-None-Match (and the load test) ask with ?version=.
        unchanged = HttpResponseNotModified()
    return unchanged


def _live(request: HttpRequest, evening: Evening, membership: Membership | None) -> HttpResponse:
    """The live poll, after the caller's access check: 304 while the evening is at the
    version the page shows (its If-None-Match), else the changed parts."""
    tag = str(evening.version)
    if (unchanged := _unchanged(request, tag)) is not None:
        return unchanged
    # A member's page gets the next deal's form too: an untouched open form follows it.
    context = page_context(
        request, evening, membership, with_forms=membership is not None, with_undo=False
    )
    mark_sheet_changes(context, since_of(request.GET.get("since")))
    context["shared"] = membership is None
    response = render(request, "scorekeeper/table/evening_live.html", context)
    return conditional.tagged(response, tag)


@require_http_methods(["GET", "HEAD"])
@round_closed_answer
def evening_live(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, membership = evening_for(request, evening_id)
    return _live(request, evening, membership)


def shared_evening(token: str) -> Evening:
    if not token:
        raise Http404
    return get_object_or_404(Evening.objects.select_related("club"), share_token=token)


@require_http_methods(["GET", "HEAD"])
def evening_shared(request: HttpRequest, token: str) -> HttpResponse:
    evening = shared_evening(token)
    context = page_context(request, evening, None)
    context["shared"] = True
    return render(request, "scorekeeper/table/evening.html", context)


@require_http_methods(["GET", "HEAD"])
def evening_shared_live(request: HttpRequest, token: str) -> HttpResponse:
    evening = shared_evening(token)
    return _live(request, evening, None)


@require_http_methods(["GET", "HEAD", "POST"])
def seat_join(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    """Who is at the table: players leave, others join (a page of its own, rarely needed)."""
    game, _membership = game_for(request, evening_id, game_id)
    if game.evening.is_closed:
        raise evening_closed(game.evening)
    present = services.present_players(game)
    absent = [p for p in game.evening.club.players.filter(retired=False) if p not in present]
    form = SeatJoinForm(request.POST or None, absent=absent, present=present)
    if request.method == "POST" and form.is_valid():
        player, after = form.chosen()
        try:
            services.seat_join(game=game, player=player, after=after)
        except services.ServiceError as error:
            form.add_error("player", error.message)
        else:
            messages.success(request, _("%(name)s joins the table.") % {"name": player})
            return redirect(evening_url(game.evening, game))
    return render(
        request,
        "scorekeeper/table/seats.html",
        {
            "evening": game.evening,
            "club": game.evening.club,
            "game": game,
            "present": present,
            "form": form,
        },
    )


@require_http_methods(["POST"])
def seat_leave(request: HttpRequest, evening_id: int, game_id: int, player_id: int) -> HttpResponse:
    game, _membership = game_for(request, evening_id, game_id)
    player = get_object_or_404(game.evening.club.players, pk=player_id)
    try:
        services.seat_leave(game=game, player=player)
    except services.ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s leaves the table.") % {"name": player})
    return redirect(evening_url(game.evening, game))


def _owner_evening(request: HttpRequest, evening_id: int) -> Evening:
    evening, membership = evening_for(request, evening_id)
    if not membership.is_owner:
        raise owner_only(evening_url(evening), _("Back to the evening"))
    return evening


@require_http_methods(["POST"])
def evening_close(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = services.evening_close(evening=_owner_evening(request, evening_id))
    return redirect(evening_url(evening))


@require_http_methods(["POST"])
def evening_reopen(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = services.evening_reopen(evening=_owner_evening(request, evening_id))
    return redirect(evening_url(evening))


@require_http_methods(["POST"])
def share_link_create(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = services.share_link_create(evening=_owner_evening(request, evening_id))
    return redirect(f"{evening_url(evening)}#owner-tools")  # share.js opens its QR code there


@require_http_methods(["POST"])
def share_link_revoke(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = services.share_link_revoke(evening=_owner_evening(request, evening_id))
    return redirect(evening_url(evening))
