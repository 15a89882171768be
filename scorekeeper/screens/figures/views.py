"""The club figures pages, for a season or all time: the range (``ScopeForm``), its figures,
the players' names, the page's rows."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.views.decorators.http import require_http_methods

from scorekeeper.models import Season
from scorekeeper.reads import figures_pages, figures_records
from scorekeeper.reads.club_figures import club_figures, player_names
from scorekeeper.reads.standings import club_seasons, current_season
from scorekeeper.screens.access import membership_for
from scorekeeper.screens.figures.forms import ALL_TIME, ScopeForm


def _page(
    request: HttpRequest, club_id: int, kind: str, part: str, build: Callable[..., Any]
) -> HttpResponse:
    name, template = f"figures_{kind}", f"scorekeeper/figures/{kind}.html"
    membership = membership_for(request, club_id)
    club = membership.club
    seasons = club_seasons(club)
    default = current_season(seasons, timezone.localdate())
    form = ScopeForm(request.GET, seasons=seasons, default=default)
    if not form.is_valid():
        raise Http404
    season: Season | None = form.cleaned_data["season"]
    start, end = (season.start, season.end) if season else (None, None)
    figures = club_figures(club.pk, start=start, end=end, part=part)  # the page's part alone
    query = urlencode({"season": season.pk if season else ALL_TIME})
    # The page is drawn once per figures and language (a fragment cache): the digest of its
    # evenings at their versions names the players' names too (a rename raises them).
    state = repr((figures.key, get_language(), name, query))
    shown = [(other.pk, other.name, other.start, other.end) for other in seasons]
    context = {
        "club": club,
        "membership": membership,
        "season": season,
        "seasons": seasons,
        "scope_query": query,
        "page_name": name,
        # The nav is drawn once per club, seasons, page, range and language (a fragment).
        "nav_key": repr((club.pk, shown, season and season.pk, get_language(), name, query)),
        "page_key": hashlib.sha1(state.encode(), usedforsecurity=False).hexdigest(),
        # Called by the template, once, only when the page's fragment is not in the cache.
        "page": functools.cache(lambda: build(figures, player_names(club.pk))),
    }
    return render(request, template, context)


def _figures_view(kind: str, part: str, build: Callable[..., Any]) -> Callable[..., HttpResponse]:
    """The view of a figures page (``figures_<kind>``, ``figures/<kind>.html``): one part."""
    view = functools.partial(_page, kind=kind, part=part, build=build)
    return require_http_methods(["GET", "HEAD"])(view)


ratings = _figures_view("ratings", "ratings", figures_pages.ratings_page)
head_to_head = _figures_view("head_to_head", "flow", figures_pages.head_to_head_page)
records = _figures_view("records", "records", figures_records.records_page)
contracts = _figures_view("contracts", "contracts", figures_pages.contracts_page)
