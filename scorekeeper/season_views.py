"""Seasons: standings, a player's page, charts, exports and imports.

Thin function views over ``scorekeeper.stats`` (reads), ``scorekeeper.exports`` (files) and
``scorekeeper.services`` (writes). Everyone who is not a member of the club gets 404.
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

from scorekeeper import charts, exports, services, stats
from scorekeeper.access import evening_for, membership_for, owner_membership_for
from scorekeeper.models import Club, Membership, Player, Season
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.season_forms import ImportForm, SeasonForm
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


@dataclass
class Column:
    key: str
    label: str
    url: str
    sorted: str  # "ascending", "descending" or ""


def _sorting(request: HttpRequest) -> tuple[str, bool]:
    sort = request.GET.get("sort", "total")
    if sort not in stats.SORTS:
        sort = "total"
    direction = request.GET.get("dir")
    descending = (
        direction == "desc" if direction in ("asc", "desc") else stats.DEFAULT_DESCENDING[sort]
    )
    return sort, descending


def _columns(url: str, sort: str, descending: bool) -> list[Column]:
    columns = []
    for key, label in COLUMNS:
        if key == sort:
            next_descending = not descending
            state = "descending" if descending else "ascending"
        else:
            next_descending, state = stats.DEFAULT_DESCENDING[key], ""
        query = urlencode({"sort": key, "dir": "desc" if next_descending else "asc"})
        columns.append(Column(key=key, label=str(label), url=f"{url}?{query}", sorted=state))
    return columns


def standings_context(
    season: Season | None,
    season_stats: stats.SeasonStats | None = None,
    *,
    sort: str = "total",
    descending: bool = True,
    htmx: bool = False,
    on_club_page: bool = False,
) -> dict[str, Any]:
    """What ``season_standings_table.html`` reads."""
    if season is None:
        return {"season": None, "standings": [], "standings_columns": []}
    if season_stats is None:
        season_stats = stats.for_season(season)
    url = reverse("season", args=[season.club_id, season.pk])
    cache_key = ":".join(
        map(
            str,
            (season.pk, season_stats.digest, sort, descending, htmx, on_club_page, get_language()),
        )
    )
    return {
        "season": season,
        "standings_cache_key": cache_key,
        "standings_on_club_page": on_club_page,
        "standings": stats.sort_rows(season_stats.rows, sort, descending),
        "standings_columns": _columns(url, sort, descending),
        "standings_htmx": htmx,
        "player_query": urlencode({"season": season.pk}),
    }


def club_season_context(club: Club) -> dict[str, Any]:
    """The current season's standings for the club page (two or three queries).

    In the view: ``context.update(season_views.club_season_context(club))``; in the
    template: ``{% include "scorekeeper/season_standings_table.html" %}``.
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
    return render(request, "scorekeeper/seasons.html", context)


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
    sort, descending = _sorting(request)
    season_stats = stats.for_season(season)
    context = {
        "club": membership.club,
        "membership": membership,
        "is_owner": membership.is_owner,
        **standings_context(season, season_stats, sort=sort, descending=descending, htmx=True),
    }
    if getattr(request, "htmx", False) and request.htmx.target == "standings":
        return render(request, "scorekeeper/season.html#standings", context)
    context.update(
        season_stats=season_stats,
        recent_evenings=season_stats.evenings[::-1][:RECENT_EVENINGS],
        chart=charts.season_chart(season_stats),
        seasons=list(membership.club.seasons.all()),
    )
    return render(request, "scorekeeper/season.html", context)


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
    elif wanted.isdigit():
        season = next((s for s in seasons if s.pk == int(wanted)), None)
        if season is None:
            raise Http404
    else:
        season = stats.current_season(membership.club, timezone.localdate())
    figures = stats.player_figures(
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
        # Drawn only when the page's cached figures are missing (a callable in the template).
        "chart": functools.partial(charts.player_chart, figures, title=title),
    }
    return render(request, "scorekeeper/player.html", context)


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
    number = request.GET.get("game", "1")
    if not number.isdigit():
        raise Http404
    try:
        content = exports.evening_json(evening, int(number))
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
    """A deal sheet (or a season file) into new evenings: all of it, or nothing."""
    membership = membership_for(request, club_id)
    club = membership.club
    form = ImportForm(request.POST or None, request.FILES or None)
    problem = ""
    if request.method == "POST" and form.is_valid():
        content = form.cleaned_data["content"]
        try:
            evenings = exports.import_entries(
                club=club,
                entries=exports.read_import(content),
                created_by=request.user,
                date=form.cleaned_data["date"],
                place=form.cleaned_data["place"],
            )
        except exports.ImportRefused as refused:
            problem = refused.line
            if isinstance(content, bytes) and not form.cleaned_data.get("text"):
                # Keep what was sent in view, so that it can be corrected here.
                data = request.POST.copy()
                data[form.add_prefix("text")] = content.decode("utf-8", errors="replace")
                form = ImportForm(data)
                form.is_valid()
        else:
            count = len(evenings)
            messages.success(
                request,
                _("The deal sheet is imported.")
                if count == 1
                else _("%(count)s evenings are imported.") % {"count": count},
            )
            if count == 1:
                return redirect("evening", evenings[0].pk)
            return redirect("club", club.pk)
    context = {"club": club, "membership": membership, "form": form, "problem": problem}
    return render(request, "scorekeeper/import.html", context)
