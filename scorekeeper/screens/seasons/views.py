"""Seasons: the list, a season's standings, a player's page and charts."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.models import Membership, Player, Season
from scorekeeper.models.figures import ESCOPETTE, TAROT
from scorekeeper.reads import charts, player_figures, standings
from scorekeeper.screens.access import membership_for, owner_membership_for
from scorekeeper.screens.input_fields import refuse
from scorekeeper.screens.seasons.forms import SeasonForm
from scorekeeper.screens.standings import (
    ESCOPETTE_SECTION,
    evening_points_scale,
    season_rules_in_force,
    standings_context,
    standings_sorting,
)
from scorekeeper.server.parsing import parse_id
from scorekeeper.services import ServiceError

RECENT_EVENINGS = 5


def _season_of(membership: Membership, season_id: int) -> tuple[Season, list[Season]]:
    """The club's season (404 if it is another club's) and all of its seasons: one query,
    for the season page's switch."""
    seasons = standings.club_seasons(membership.club)
    season = next((s for s in seasons if s.pk == season_id), None)
    if season is None:
        raise Http404
    return season, seasons


# --- Seasons ---------------------------------------------------------------------------------


def _seasons_page(
    request: HttpRequest, membership: Membership, form: SeasonForm | None = None
) -> HttpResponse:
    club = membership.club
    context = {
        "club": club,
        "membership": membership,
        "is_owner": membership.is_owner,
        "seasons": list(club.seasons.all()),
        "form": form or SeasonForm(),
    }
    return render(request, "scorekeeper/seasons/seasons.html", context)


@require_http_methods(["GET", "HEAD"])
def season_list(request: HttpRequest, club_id: int) -> HttpResponse:
    return _seasons_page(request, membership_for(request, club_id))


@require_http_methods(["POST"])
def season_create(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = owner_membership_for(request, club_id)
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            season = services.season_create(club=membership.club, **form.cleaned_data)
        except ServiceError as error:
            refuse(form, error)
        else:
            messages.success(request, _("The season %(name)s is ready.") % {"name": season.name})
            return redirect("season", club_id, season.pk)
    return _seasons_page(request, membership, form)


@require_http_methods(["GET", "HEAD"])
def season_detail(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    membership = membership_for(request, club_id)
    season, seasons = _season_of(membership, season_id)
    scale = evening_points_scale(membership.club)
    game, sort, descending = standings_sorting(request, scale is not None)
    name, by_kind = standings.standings_of(season.club_id, season.start, season.end)  # lazy
    prefix = "escopette_" if game == ESCOPETTE else ""  # the table sorted: its keywords
    sorting = {f"{prefix}sort": sort, f"{prefix}descending": descending}
    context = {
        "club": membership.club,
        "membership": membership,
        "is_owner": membership.is_owner,
        **standings_context(season, (name, by_kind), htmx=True, scale=scale, **sorting),
    }
    if getattr(request, "htmx", False):
        partial = {"standings": "standings_section", ESCOPETTE_SECTION: "escopette_section"}
        if request.htmx.target in partial:
            template = "scorekeeper/seasons/_standings_table.html#" + partial[request.htmx.target]
            return render(request, template, context)
    # The rest is read only when the page's fragment is drawn: a warm view adds nothing up.
    context.update(
        shown=SimpleLazyObject(lambda: _season_shown(by_kind)),
        chart=lambda: charts.season_chart(by_kind[TAROT]),
        seasons=seasons,
        # Several: a note; counted only when the page's fragment is drawn.
        rules_in_force=SimpleLazyObject(lambda: season_rules_in_force(by_kind[TAROT])),
        # The content is kept whole under the tables' keys and these (seasons/season.html).
        seasons_key=[(other.pk, other.name, other.start, other.end) for other in seasons],
    )
    return render(request, "scorekeeper/seasons/season.html", context)


def _season_shown(by_kind: dict[str, standings.SeasonStats]) -> dict[str, Any]:
    """The season's evenings and deals of either game (the chart draws French Tarot's)."""
    found = {e.evening_id: e for figures in by_kind.values() for e in figures.evenings}
    evenings = sorted(found.values(), key=lambda e: (e.date, e.evening_id))
    deals = sum(figures.deals for figures in by_kind.values())
    return {"evenings": evenings, "deals": deals, "recent": evenings[::-1][:RECENT_EVENINGS]}


# --- A player's page --------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def player_detail(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    membership = membership_for(request, club_id)
    player = get_object_or_404(Player, pk=player_id, club_id=club_id)
    wanted = request.GET.get("season", "")
    season: Season | None
    if wanted and wanted != "all":
        season, seasons = _season_of(membership, parse_id(wanted) or 0)
    else:
        seasons = standings.club_seasons(membership.club)
        season = None if wanted else standings.current_season(seasons, timezone.localdate())
    figures, escopette = player_figures.player_sections(
        player, start=season.start if season else None, end=season.end if season else None
    )
    title = _("Points through the season") if season else _("Points, all time")
    context = {
        "club": membership.club,
        "membership": membership,
        "player": player,
        "season": season,
        "seasons": seasons,
        "figures": figures,
        "escopette": escopette,  # L'escopette's figures, None if the player has none here
        # Drawn only when the page's cached figures are missing (a callable in the template).
        "chart": functools.partial(charts.player_chart, figures, title=title),
    }
    return render(request, "scorekeeper/seasons/player.html", context)
