"""The organiser's corrections: a table's deals, one deal corrected or a missing one added
(also once the round is closed, in the deal's history), one deal more allowed past the
plan, and a new search for the seating. Members of the club."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.exchange.error_text import refusal_message
from scorekeeper.models import Deal, Tournament, TournamentTable
from scorekeeper.reads import tournaments as reads
from scorekeeper.reads.deal_history import deal_history
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.screens.access import membership_for
from scorekeeper.screens.table.deal_forms import TarotDealForm, initial_for_deal
from scorekeeper.screens.table.evening_page import deal_form, deal_present


def _table(request: HttpRequest, tournament_id: int, number: int, table: int) -> TournamentTable:
    tables = TournamentTable.objects.select_related(
        "round__tournament__club", "evening", "game__first_dealer"
    )
    found = get_object_or_404(
        tables, round__tournament_id=tournament_id, round__number=number, number=table
    )
    membership_for(request, found.round.tournament.club_id)
    return found


def _table_url(table: TournamentTable) -> str:
    tournament = table.round.tournament
    return reverse("tournament_table_deals", args=[tournament.pk, table.round.number, table.number])


@require_http_methods(["GET", "HEAD"])
def table_deals(request: HttpRequest, tournament_id: int, number: int, table: int) -> HttpResponse:
    """A table's deals, each with the way to correct it."""
    found = _table(request, tournament_id, number, table)
    players, deals = reads.table_deals(found)
    tournament = found.round.tournament
    due = found.deals_due(tournament.deals_per_round)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "table": found,
        "players": players,
        "deals": deals,
        "duplicate": tournament.kind == Tournament.Kind.DUPLICATE,
        "due": due,
        "missing": max(due - len(deals), 0),
    }
    return render(request, "scorekeeper/tournaments/table_deals.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def table_deal_correct(
    request: HttpRequest, tournament_id: int, number: int, table: int, deal_id: int
) -> HttpResponse:
    found = _table(request, tournament_id, number, table)
    deal = get_object_or_404(
        Deal.objects.select_related("game"), pk=deal_id, game_id=found.game_id, paper=False
    )
    game = deal.game
    present = deal_present(deal)
    if request.method == "POST":
        form = TarotDealForm(request.POST, game=game, present=present)
        if form.is_valid() and form.inputs is not None:
            try:
                deal = services.tournament_deal_correct(
                    table=found,
                    deal=deal,
                    inputs=form.inputs,
                    dealer=form.dealer_player(),
                    changed_by=request.user,
                )
            except (services.ServiceError, ScoringError) as error:
                form.add_error(None, refusal_message(error))
            else:
                messages.success(request, _("Deal %(number)s changed.") % {"number": deal.number})
                return redirect(_table_url(found))
    else:
        form = TarotDealForm(game=game, present=present, initial=initial_for_deal(deal, present))
    preview = reverse("deal_preview", args=[found.evening_id, game.pk])
    context = {
        "club": found.round.tournament.club,
        "tournament": found.round.tournament,
        "table": found,
        "evening": found.evening,
        "deal": deal,
        "game": game,
        "form": form,
        "action": request.path,
        "preview_url": f"{preview}?deal={deal.pk}",
        "history": deal_history(deal),
    }
    status = 422 if request.method == "POST" else 200
    return render(request, "scorekeeper/tournaments/deal_correct.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def table_deal_add(
    request: HttpRequest, tournament_id: int, number: int, table: int
) -> HttpResponse:
    """Add the table's next deal, also once its round is closed (recorded as added by the
    signed-in member); past the planned deals too, the page says so."""
    found = _table(request, tournament_id, number, table)
    game = found.game
    form = deal_form(request, game, data=request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid() and form.inputs is not None:
        try:
            deal = services.tournament_deal_add(
                table=found,
                inputs=form.inputs,
                dealer=form.dealer_player(),
                added_by=request.user,
                case_number=form.cleaned_data.get("case_number"),
            )
        except (services.ServiceError, ScoringError) as error:
            form.add_error(None, refusal_message(error))
        else:
            messages.success(request, _("Deal %(number)s added.") % {"number": deal.number})
            return redirect(_table_url(found))
    tournament = found.round.tournament
    entered = game.deals.count()
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "table": found,
        "game": game,
        "form": form,
        "action": request.path,
        "preview_url": reverse("deal_preview", args=[found.evening_id, game.pk]),
        "next_number": entered + 1,
        "past_plan": entered >= found.deals_due(tournament.deals_per_round),
    }
    status = 422 if request.method == "POST" else 200
    return render(request, "scorekeeper/tournaments/deal_add.html", context, status=status)


@require_http_methods(["POST"])
def table_allow_more(
    request: HttpRequest, tournament_id: int, number: int, table: int
) -> HttpResponse:
    """Let a table of the round in play enter one deal past the planned ones."""
    found = _table(request, tournament_id, number, table)
    try:
        found = services.table_allow_more(table=found)
    except services.ServiceError as error:
        messages.error(request, error.message)
    else:
        due = found.deals_due(found.round.tournament.deals_per_round)
        text = ngettext(
            "Table %(table)s may now enter %(count)s deal this round.",
            "Table %(table)s may now enter %(count)s deals this round.",
            due,
        )
        messages.success(request, text % {"table": found.number, "count": due})
    return redirect("tournament", tournament_id)


@require_http_methods(["POST"])
def schedule_search(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Search again for a seating with fewer repeated meetings; the better plan is kept."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=tournament_id)
    membership_for(request, tournament.club_id)
    try:
        before, after = services.tournament_schedule_search(tournament=tournament, by=request.user)
    except services.ServiceError as error:
        messages.error(request, error.message)
    else:
        if before is not None and after >= before:
            text = ngettext(
                "No better seating found: %(count)s repeated meeting remains.",
                "No better seating found: %(count)s repeated meetings remain.",
                after,
            )
            messages.info(request, text % {"count": after})
        else:
            text = ngettext(
                "A better seating was found: %(count)s repeated meeting remains.",
                "A better seating was found: %(count)s repeated meetings remain.",
                after,
            )
            messages.success(request, text % {"count": after})
    return redirect("tournament", tournament.pk)
