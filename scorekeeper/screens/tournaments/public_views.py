"""Without an account: a tournament table's link, and the public ranking."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from scorekeeper.models import Tournament, TournamentTable
from scorekeeper.screens.access import table_grant
from scorekeeper.screens.tournaments.views import live_page


@require_http_methods(["GET", "HEAD"])
def table_link(request: HttpRequest, token: str) -> HttpResponse:
    """A table card's QR code: this phone may score that table while its round is open."""
    tables = TournamentTable.objects.select_related("round__tournament", "evening")
    table = get_object_or_404(tables, token=token)
    if table.round.is_closed or table.evening.is_closed:
        context = {"tournament": table.round.tournament, "table": table}
        return render(request, "scorekeeper/tournaments/table_closed.html", context, status=410)
    table_grant(request, table)
    return redirect("evening", table.evening_id)


@require_http_methods(["GET", "HEAD"])
def tournament_public(request: HttpRequest, token: str) -> HttpResponse:
    """The ranking, live, for anyone with the read-only link."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), public_token=token)
    return live_page(request, tournament, "scorekeeper/tournaments/public.html", dict)
