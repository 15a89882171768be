"""Seasons: standings, a player's page, charts, exports and imports.

Thin function views over ``scorekeeper.reads.stats`` (reads),
``scorekeeper.exchange.exports`` (files) and ``scorekeeper.services``
(writes). Everyone who is not a member of the club gets 404.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.exchange import exports
from scorekeeper.models import Club, Membership, Player, Season
from scorekeeper.reads import charts, stats
from scorekeeper.reads.house_rules import rules_in_force
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.screens.access import evening_for, membership_for, owner_membership_for
from scorekeeper.screens.seasons.forms import ImportForm, SeasonForm
from scorekeeper.server.parsing import parse_count, parse_id
from scorekeeper.services import ServiceError

RECENT_EVENINGS = 5
COLUMNS = [
    ("name", gettext_lazy("Player")),
    ("total", gettext_lazy("Points")),
    ("evenings", gettext_lazy("Evenings")),
    ("deals", gettext_lazy("Deals")),
    ("takes", gettext_lazy("Takes")),
    ("made", gettext_lazy("Made")),
    ("average", gettext_lazy("Per deal")),
]
ESCOPETTE_COLUMNS = [
    ("name", gettext_lazy("Player")),
    ("total", gettext_lazy("Points")),
    ("deals", gettext_lazy("Deals")),
    ("games", gettext_lazy("Games")),
    ("won", gettext_lazy("Won")),
    ("average", gettext_lazy("Per deal")),
]
#: The escopette table's sorting links name their game (``?game=escopette&sort=…``), and
#: without JavaScript come back to its section; the French Tarot table keeps the plain links.
ESCOPETTE_SECTION = "escopette-standings"


@dataclass
class Column:
    key: str
    label: str
    url: str
    sorted: str  # "ascending", "descending" or ""
    hx_url: str = ""  # the same, without the page's fragment


def _sorting(request: HttpRequest) -> tuple[str, str, bool]:
    """The game whose table is sorted (``?game=``), its column and its direction."""
    game = stats.ESCOPETTE if request.GET.get("game") == stats.ESCOPETTE else stats.TAROT
    columns = ESCOPETTE_COLUMNS if game == stats.ESCOPETTE else COLUMNS
    sort = request.GET.get("sort", "total")
    if sort not in {key for key, _label in columns}:
        sort = "total"
    direction = request.GET.get("dir")
    descending = (
        direction == "desc" if direction in ("asc", "desc") else stats.DEFAULT_DESCENDING[sort]
    )
    return game, sort, descending


def _columns(url: str, sort: str, descending: bool, *, game: str = stats.TAROT) -> list[Column]:
    escopette = game == stats.ESCOPETTE
    columns = []
    for key, label in ESCOPETTE_COLUMNS if escopette else COLUMNS:
        if key == sort:
            next_descending = not descending
            state = "descending" if descending else "ascending"
        else:
            next_descending, state = stats.DEFAULT_DESCENDING[key], ""
        query = urlencode(
            {
                **({"game": game} if escopette else {}),
                "sort": key,
                "dir": "desc" if next_descending else "asc",
            }
        )
        fragment = f"#{ESCOPETTE_SECTION}" if escopette else ""
        columns.append(
            Column(
                key=key,
                label=str(label),
                url=f"{url}?{query}{fragment}",
                sorted=state,
                hx_url=f"{url}?{query}",
            )
        )
    return columns


def standings_context(
    season: Season | None,
    season_stats: stats.SeasonStats | None = None,
    *,
    escopette_stats: stats.SeasonStats | None = None,
    sort: str = "total",
    descending: bool = True,
    escopette_sort: str = "total",
    escopette_descending: bool = True,
    htmx: bool = False,
    on_club_page: bool = False,
) -> dict[str, Any]:
    """What ``seasons/_standings_table.html`` reads: French Tarot's table, and L'escopette's
    when the season has games of it (``escopette_standings`` is empty else)."""
    if season is None:
        return {
            "season": None,
            "standings": [],
            "standings_columns": [],
            "escopette_standings": [],
        }
    if season_stats is None or escopette_stats is None:
        by_kind = stats.for_season_by_kind(season)
        if season_stats is None:
            season_stats = by_kind[stats.TAROT]
        if escopette_stats is None:
            escopette_stats = by_kind[stats.ESCOPETTE]
    url = reverse("season", args=[season.club_id, season.pk])

    def cache_key(figures: stats.SeasonStats, sort: str, descending: bool) -> str:
        state = (season.pk, figures.digest, sort, descending, htmx, on_club_page, get_language())
        return ":".join(map(str, state))

    return {
        "season": season,
        "standings_cache_key": cache_key(season_stats, sort, descending),
        "standings_on_club_page": on_club_page,
        "standings": stats.sort_rows(season_stats.rows, sort, descending),
        "standings_columns": _columns(url, sort, descending),
        "standings_htmx": htmx,
        "player_query": urlencode({"season": season.pk}),
        "escopette_stats": escopette_stats,
        "escopette_standings": stats.sort_rows(
            escopette_stats.rows, escopette_sort, escopette_descending
        ),
        "escopette_columns": _columns(
            url, escopette_sort, escopette_descending, game=stats.ESCOPETTE
        ),
        "escopette_cache_key": cache_key(escopette_stats, escopette_sort, escopette_descending),
    }


def club_season_context(club: Club) -> dict[str, Any]:
    """The current season's standings for the club page (a few queries, whatever its size).

    L'escopette's table too when the season has games of it (two queries more when its
    figures are not in memory yet).

    In the view: ``context.update(season_views.club_season_context(club))``; in the
    template: ``{% include "scorekeeper/seasons/_standings_table.html" %}``.
    """
    season = stats.current_season(club, timezone.localdate())
    return {**standings_context(season, on_club_page=True), "club": club}


def _season(club_id: int, season_id: int) -> Season:
    return get_object_or_404(Season.objects.select_related("club"), pk=season_id, club_id=club_id)


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
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("The season %(name)s is ready.") % {"name": season.name})
            return redirect("season", club_id, season.pk)
    return _seasons_page(request, membership, form)


@require_http_methods(["GET", "HEAD"])
def season_detail(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    membership = membership_for(request, club_id)
    season = _season(club_id, season_id)
    game, sort, descending = _sorting(request)
    by_kind = stats.for_season_by_kind(season)
    season_stats = by_kind[stats.TAROT]
    sorting: dict[str, Any] = (
        {"escopette_sort": sort, "escopette_descending": descending}
        if game == stats.ESCOPETTE
        else {"sort": sort, "descending": descending}
    )
    context = {
        "club": membership.club,
        "membership": membership,
        "is_owner": membership.is_owner,
        **standings_context(
            season,
            season_stats,
            escopette_stats=by_kind[stats.ESCOPETTE],
            htmx=True,
            **sorting,
        ),
    }
    if getattr(request, "htmx", False):
        partial = {"standings": "standings_section", ESCOPETTE_SECTION: "escopette_section"}
        if request.htmx.target in partial:
            template = "scorekeeper/seasons/_standings_table.html#" + partial[request.htmx.target]
            return render(request, template, context)
    # Evenings and deals of either game; the chart draws French Tarot's points.
    evenings = {e.evening_id: e for figures in by_kind.values() for e in figures.evenings}
    season_evenings = sorted(evenings.values(), key=lambda e: (e.date, e.evening_id))
    context.update(
        season_stats=season_stats,
        season_evenings=season_evenings,
        season_deals=sum(figures.deals for figures in by_kind.values()),
        recent_evenings=season_evenings[::-1][:RECENT_EVENINGS],
        chart=charts.season_chart(season_stats),
        seasons=list(membership.club.seasons.all()),
        rules_in_force=rules_in_force(exports.season_evenings(season)),  # several: a note
    )
    return render(request, "scorekeeper/seasons/season.html", context)


# --- A player's page --------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def player_detail(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    membership = membership_for(request, club_id)
    player = get_object_or_404(Player, pk=player_id, club_id=club_id)
    seasons = list(membership.club.seasons.all())
    wanted = request.GET.get("season", "")
    season: Season | None
    if wanted == "all":
        season = None
    elif wanted:
        season_id = parse_id(wanted)
        season = next((s for s in seasons if s.pk == season_id), None)
        if season is None:
            raise Http404
    else:
        season = stats.current_season(membership.club, timezone.localdate())
    figures, escopette = stats.player_sections(
        player,
        start=season.start if season else None,
        end=season.end if season else None,
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


# --- Exports ------------------------------------------------------------------------------------


def _download(content: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content.encode("utf-8"), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _refused(error: ScoringError) -> HttpResponse:
    text = _("This cannot be exported as a deal sheet: %(reason)s") % {
        "reason": exports.one_line(error)
    }
    return HttpResponse(text, status=409, content_type="text/plain; charset=utf-8")


@require_http_methods(["GET", "HEAD"])
def evening_export_csv(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, _membership = evening_for(request, evening_id)
    return _download(
        exports.evening_csv(evening),
        exports.CSV_CONTENT_TYPE,
        exports.evening_filename(evening, "csv"),
    )


@require_http_methods(["GET", "HEAD"])
def evening_export_json(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, _membership = evening_for(request, evening_id)
    number = parse_count(request.GET.get("game", "1"))
    if number is None:
        raise Http404
    try:
        content = exports.evening_json(evening, number)
    except ScoringError as error:
        if error.field == "game":
            raise Http404 from None
        return _refused(error)
    return _download(content, exports.JSON_CONTENT_TYPE, exports.evening_filename(evening, "json"))


@require_http_methods(["GET", "HEAD"])
def season_export_csv(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    membership_for(request, club_id)
    season = _season(club_id, season_id)
    return _download(
        exports.season_csv(season),
        exports.CSV_CONTENT_TYPE,
        exports.season_filename(season, "csv"),
    )


@require_http_methods(["GET", "HEAD"])
def season_export_json(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    membership_for(request, club_id)
    season = _season(club_id, season_id)
    try:
        content = exports.season_json(season)
    except ScoringError as error:
        return _refused(error)
    return _download(content, exports.JSON_CONTENT_TYPE, exports.season_filename(season, "json"))


# --- Import -------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def club_import(request: HttpRequest, club_id: int) -> HttpResponse:
    """A deal sheet, a season file or a CSV into new closed evenings: all of it, or nothing.

    The first post shows a preview (evenings, deals, players to create, totals); the file is
    kept in the text field, and "Import" posts it again to write it.
    """
    membership = membership_for(request, club_id)
    club = membership.club
    form = ImportForm(request.POST or None, request.FILES or None)
    problem = ""
    preview = None
    if request.method == "POST" and form.is_valid():
        content = form.cleaned_data["content"]
        options = {
            "date": form.cleaned_data["date"],
            "place": form.cleaned_data["place"],
            "skip_existing": form.cleaned_data["skip_existing"],
        }
        try:
            entries = exports.read_import(content)
            if not form.cleaned_data["confirm"]:
                try:
                    preview = services.import_preview(club=club, entries=entries, **options)
                except ScoringError as error:
                    raise exports.ImportRefused(
                        error, getattr(error, "evening_number", None)
                    ) from None
            else:
                evenings = exports.import_entries(
                    club=club, entries=entries, created_by=request.user, **options
                )
        except exports.ImportRefused as refused:
            problem = refused.text()
        if preview is not None or problem:
            # Keep what was sent in view, so that it can be confirmed or corrected here.
            data = request.POST.copy()
            if isinstance(content, bytes):
                data[form.add_prefix("text")] = content.decode("utf-8", errors="replace")
            data.pop(form.add_prefix("confirm"), None)
            form = ImportForm(data)
            form.is_valid()
        else:
            count = len(evenings)
            if count == 0:
                messages.info(request, _("Everything in this file is already here."))
                return redirect("club", club.pk)
            messages.success(
                request,
                _("The deal sheet is imported.")
                if count == 1
                else _("%(count)s evenings are imported.") % {"count": count},
            )
            if count == 1:
                return redirect("evening", evenings[0].pk)
            return redirect("club", club.pk)
    context = {
        "club": club,
        "membership": membership,
        "form": form,
        "problem": problem,
        "preview": preview,
        "max_deals": exports.IMPORT_MAX_DEALS,
    }
    return render(request, "scorekeeper/seasons/import.html", context)


@require_http_methods(["GET", "HEAD"])
def import_template(request: HttpRequest, club_id: int) -> HttpResponse:
    """A spreadsheet to fill in with paper history: the CSV columns and two example rows."""
    membership_for(request, club_id)
    return _download(
        exports.paper_template_csv(),
        exports.CSV_CONTENT_TYPE,
        "scorekeeper-paper-history.csv",
    )
