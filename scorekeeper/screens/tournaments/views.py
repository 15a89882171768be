"""The organiser's pages: the club's tournaments, one tournament's rounds and ranking, its
players, and each round's table cards and seating list. Members of the club only (404 for
everyone else); the public ranking and a table's link are ``public_views``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.exchange.game_data import CSV_CONTENT_TYPE
from scorekeeper.exchange.tournament_csv import results_csv
from scorekeeper.models import Membership, Tournament, TournamentPlayer, TournamentRound
from scorekeeper.reads import tournaments as reads
from scorekeeper.reads.duplicate import ranking_for
from scorekeeper.screens.access import membership_for
from scorekeeper.screens.input_fields import refuse
from scorekeeper.screens.seasons.export_views import download
from scorekeeper.screens.tournaments import cases
from scorekeeper.screens.tournaments.forms import RegisterForm, TournamentForm
from scorekeeper.server import conditional
from scorekeeper.server.error_pages import Refusal
from scorekeeper.services import ServiceError

# The organiser's and the public page ask this often while playing, as a table's sheet does
# (live.js): a conditional GET, answered 304 while nothing changed.
LIVE_SECONDS = 4


def _tournament(request: HttpRequest, tournament_id: int) -> tuple[Tournament, Membership]:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=tournament_id)
    return tournament, membership_for(request, tournament.club_id)


def _organiser(request: HttpRequest, tournament: Tournament, membership: Membership) -> bool:
    """The club's owner or the member who made the tournament."""
    return membership.is_owner or tournament.created_by_id == request.user.pk


@require_http_methods(["GET", "HEAD", "POST"])
def tournament_list(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = membership_for(request, club_id)
    club = membership.club
    today = timezone.localdate()
    # A name ready to keep: no typing needed to start.
    name = _("Tournament of %(date)s") % {"date": date_format(today, "j F Y")}
    form = TournamentForm(
        request.POST if request.method == "POST" else None,
        initial={"date": today, "name": name},
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(
                club=club, created_by=request.user, **form.cleaned_data
            )
        except ServiceError as error:
            refuse(form, error)
        else:
            return redirect("tournament_players", tournament.pk)
    context = {"club": club, "tournaments": list(club.tournaments.all()), "form": form}
    return render(request, "scorekeeper/tournaments/list.html", context)


def _can_search(tournament: Tournament, rounds: list[reads.RoundProgress]) -> bool:
    """A round not yet seated remains, or the round in play has no deal yet."""
    if (
        tournament.state == Tournament.State.FINISHED
        or tournament.kind == Tournament.Kind.DUPLICATE
    ):
        return False  # a duplicate tournament follows its movement
    fresh = bool(rounds) and not rounds[-1].closed and not any(t.deals for t in rounds[-1].tables)
    return fresh or len(rounds) < tournament.rounds


def live_page(
    request: HttpRequest, tournament: Tournament, template: str, more: Callable[[], dict[str, Any]]
) -> HttpResponse:
    """A page of the ranking while playing: 304 to htmx's poll while nothing changed, else its
    live part for htmx or the whole page; ``more``: the rest of its context, read only then."""
    key = reads.ranking_key(tournament)
    tag = conditional.opaque_tag(key)
    if request.htmx and (unchanged := conditional.unchanged(request, tag)):
        return unchanged
    context = {
        **more(),
        "tournament": tournament,
        "ranking": ranking_for(tournament, key),
        "live_seconds": LIVE_SECONDS if tournament.state == Tournament.State.PLAYING else 0,
        "live_tag": tag,
    }
    if request.htmx:
        return conditional.tagged(render(request, f"{template}#live", context), tag)
    return render(request, template, context)


@require_http_methods(["GET", "HEAD"])
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, membership = _tournament(request, tournament_id)

    def details() -> dict[str, Any]:
        rounds = reads.progress(tournament)
        return {
            "club": tournament.club,
            "rounds": rounds,
            "current": rounds[-1] if rounds else None,
            "present": tournament.entrants.filter(present=True).count(),
            "can_start": tournament.state != Tournament.State.FINISHED
            and (not rounds or rounds[-1].closed),
            "can_search": _can_search(tournament, rounds),
            "planned_repeats": reads.planned_repeats(tournament),
            "public_url": request.build_absolute_uri(
                reverse("tournament_public", args=[tournament.public_token])
            )
            if tournament.public_token
            else "",
            "can_share": _organiser(request, tournament, membership),
        }

    return live_page(request, tournament, "scorekeeper/tournaments/detail.html", details)


@require_http_methods(["GET", "HEAD", "POST"])
def tournament_players(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, _membership = _tournament(request, tournament_id)
    entrants = list(tournament.entrants.select_related("player").order_by("player__name"))
    present_ids = {entrant.player_id for entrant in entrants if entrant.present}
    form = RegisterForm(
        request.POST if request.method == "POST" else None,
        club=tournament.club,
        exclude=present_ids,
    )
    if request.method == "POST" and form.is_valid():
        try:
            registered = services.tournament_register_many(
                tournament=tournament,
                players=form.cleaned_data["player"],
                guest_names=form.cleaned_data["guest_name"],
            )
        except ServiceError as error:
            refuse(form, error)
        else:
            names = ", ".join(str(entrant.player) for entrant in registered)
            text = ngettext(
                "%(names)s is registered.", "%(names)s are registered.", len(registered)
            )
            messages.success(request, text % {"names": names})
            return redirect("tournament_players", tournament.pk)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "entrants": entrants,
        "present": len(present_ids),
        "form": form,
        "can_seat_first": not tournament.tournament_rounds.exists()
        and tournament.state != Tournament.State.FINISHED,
    }
    return render(request, "scorekeeper/tournaments/players.html", context)


@require_http_methods(["POST"])
def tournament_withdraw(request: HttpRequest, tournament_id: int, entrant_id: int) -> HttpResponse:
    tournament, _membership = _tournament(request, tournament_id)
    entrant = get_object_or_404(TournamentPlayer, pk=entrant_id, tournament=tournament)
    try:
        services.tournament_withdraw(entrant=entrant)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("%(name)s will not be seated any more.") % {"name": entrant.player}
        )
    return redirect("tournament_players", tournament.pk)


@require_http_methods(["POST"])
def round_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, _membership = _tournament(request, tournament_id)
    try:
        started = services.round_start(tournament=tournament, created_by=request.user)
    except ServiceError as error:  # too few players, say: told where they are registered
        messages.error(request, error.message)
        return redirect(
            "tournament_players" if error.field == "players" else "tournament", tournament.pk
        )
    messages.success(request, _("Round %(number)s is seated.") % {"number": started.number})
    return redirect("tournament_cards", tournament.pk, started.number)


def _round(tournament: Tournament, number: int) -> TournamentRound:
    return get_object_or_404(TournamentRound, tournament=tournament, number=number)


@require_http_methods(["GET", "HEAD", "POST"])
def round_close(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Close a round. While tables have deals missing, the page says which and asks first
    (a form of its own: no script needed); ``even_short`` is the answer "close anyway"."""
    tournament, _membership = _tournament(request, tournament_id)
    tournament_round = _round(tournament, number)
    if tournament_round.is_closed:
        return redirect("tournament", tournament.pk)
    if request.method == "POST":
        try:
            services.round_close(
                tournament_round=tournament_round,
                even_short=request.POST.get("even_short") == "1",
            )
        except services.RoundShort:
            pass  # the question below
        else:
            messages.success(request, _("Round %(number)s is closed.") % {"number": number})
            return redirect("tournament", tournament.pk)
    progress = next(r for r in reads.progress(tournament) if r.number == number)
    context = {"club": tournament.club, "tournament": tournament, "round": progress}
    return render(request, "scorekeeper/tournaments/round_close.html", context)


def _round_page(request: HttpRequest, tournament_id: int, number: int, template: str) -> Any:
    tournament, _membership = _tournament(request, tournament_id)
    _round(tournament, number)
    progress = next(r for r in reads.progress(tournament) if r.number == number)
    movement = services.movement_of(tournament)
    tables = [
        (
            table,
            request.build_absolute_uri(reverse("tournament_table", args=[table.token])),
            cases.table_rounds(movement, table.number) if movement else [],
        )
        for table in progress.tables
    ]
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "round": progress,
        "tables": tables,
        "sitting_out": cases.sitting_out(tournament, movement, number),
    }
    return render(request, f"scorekeeper/tournaments/{template}", context)


@require_http_methods(["GET", "HEAD"])
def round_cards(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """The table cards of a round, one per table, to print on A4."""
    return _round_page(request, tournament_id, number, "cards.html")


@require_http_methods(["GET", "HEAD"])
def round_seats(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Where each player sits this round, by name, to print and pin up."""
    return _round_page(request, tournament_id, number, "seats.html")


@require_http_methods(["GET", "HEAD"])
def case_labels(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A duplicate tournament's case labels (étuis), one per case, to print: drawn for the
    players present until the first round is seated, then the movement it follows."""
    tournament, _membership = _tournament(request, tournament_id)
    if tournament.kind != Tournament.Kind.DUPLICATE:
        raise Http404
    movement, error = services.movement_of(tournament), ""
    if movement is None:
        try:
            present = tournament.entrants.filter(present=True).count()
            movement = services.movement_draw(tournament, present)
        except ServiceError as refused:
            error = refused.message
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "error": error,
        "labels": cases.case_labels(movement) if movement else [],
        "hands": list(enumerate(cases.HANDS, start=1)),
    }
    return render(request, "scorekeeper/tournaments/case_labels.html", context)


@require_http_methods(["GET", "HEAD"])
def tournament_results(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The ranking on one printable page, for the results board."""
    tournament, _membership = _tournament(request, tournament_id)
    ranking = ranking_for(tournament)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "ranking": ranking,
        "players": len(ranking.rows),
        "finished": tournament.state == Tournament.State.FINISHED,
    }
    return render(request, "scorekeeper/tournaments/results.html", context)


@require_http_methods(["GET", "HEAD"])
def tournament_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, _membership = _tournament(request, tournament_id)
    filename = f"tournament-{tournament.date:%Y-%m-%d}-{tournament.pk}.csv"
    return download(results_csv(ranking_for(tournament)), CSV_CONTENT_TYPE, filename)


@require_http_methods(["POST"])
def tournament_public_link(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The organiser revokes the public ranking link (``revoke``), or makes a new one."""
    tournament, membership = _tournament(request, tournament_id)
    if not _organiser(request, tournament, membership):
        raise Refusal(
            _("Only the club's owner or the tournament's organiser can do this."),
            status=403,
            back_url=reverse("tournament", args=[tournament.pk]),
            back_label=_("Back to the tournament"),
        )
    if request.POST.get("action") == "revoke":
        services.tournament_public_link_revoke(tournament=tournament)
        messages.success(request, _("The public ranking link no longer works."))
    else:
        services.tournament_public_link_create(tournament=tournament)
        messages.success(
            request, _("Here is a new public ranking link; the one before no longer works.")
        )
    return redirect("tournament", tournament.pk)
