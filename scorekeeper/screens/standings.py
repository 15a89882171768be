"""The standings table of the season and club pages: columns with their sorting links, the
context ``seasons/_standings_table.html`` reads, and the rules note."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import get_format, localize
from django.utils.functional import SimpleLazyObject
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext_lazy

from scorekeeper.models import Club, Season
from scorekeeper.models.figures import ESCOPETTE, TAROT
from scorekeeper.reads import standings
from scorekeeper.reads.addresses import address_of
from scorekeeper.reads.evening_points import with_evening_points
from scorekeeper.reads.house_rules import RulesInForce, rules_in_force
from scorekeeper.server.wording import sign_class

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
EVENING_POINTS_COLUMN = ("evening_points", gettext_lazy("Evening points"))


def _tarot_columns(evening_points: bool) -> list[tuple[str, Any]]:
    """French Tarot's columns; the evening ranking points last when the club gives them."""
    return [*COLUMNS, EVENING_POINTS_COLUMN] if evening_points else COLUMNS


def evening_points_scale(club: Club) -> tuple[int, ...] | None:
    """The club's evening ranking points scale, None when it gives none."""
    return tuple(club.evening_points_scale) if club.evening_points else None


def season_rules_in_force(season_stats: standings.SeasonStats) -> list[RulesInForce]:
    """The rules the season's French Tarot nights were played by, read with its standings
    (no query): more than one entry and the season page says its standings mix rules."""
    return rules_in_force(Counter(night.rules for night in season_stats.evenings).items())


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    url: str
    sorted: str  # "ascending", "descending" or ""
    hx_url: str = ""  # the same, without the page's fragment


@dataclass(frozen=True)
class ShownRow:
    """A row of French Tarot's table worded once here, as its tags and filters would (a dozen
    rows' tags cost more than reading the standings): a cell a field, no loop a row."""

    name: str
    rank: str
    url: str  # the player's page in this season
    total: str
    mark: str  # the total's class: "positive", "negative" or ""
    evenings: str
    deals: str
    takes: str
    made: str
    average: str  # per deal
    points: str = ""  # the evening points, when the club gives them


def shown_rows(
    rows: list[standings.StandingRow], club_id: int, query: str, evening_points: bool
) -> list[ShownRow]:
    """The rows as French Tarot's table shows them, each linked to the player's page with
    ``query`` (nothing read)."""
    shown = []
    players = address_of("player", club_id)  # one reverse for the rows
    # Without grouping, ``localize`` writes an int as ``str`` does and a figure with one
    # decimal as Python does, but for its mark and a zero's sign (the language asked once).
    plain, mark = not settings.USE_THOUSAND_SEPARATOR, get_format("DECIMAL_SEPARATOR")
    number = str if plain else localize
    for row in rows:
        if row.average is None:
            average = "–"
        elif plain:
            average = f"{row.average + 0.0:.1f}".replace(".", mark)  # + 0.0: -0.0 is 0.0
        else:
            average = floatformat(row.average, 1)
        figures = (row.rank, row.total, row.evenings, row.deals, row.takes, row.made)
        rank, total, *counts = map(number, figures)
        url = f"{players(row.player_id)}?{query}"
        points = floatformat(row.evening_points, "-1") if evening_points else ""
        shown.append(
            ShownRow(row.name, rank, url, total, sign_class(row.total), *counts, average, points)
        )
    return shown


def standings_sorting(request: HttpRequest, evening_points: bool = False) -> tuple[str, str, bool]:
    """The game whose table is sorted (``?game=``), its column and its direction."""
    game = ESCOPETTE if request.GET.get("game") == ESCOPETTE else TAROT
    columns = ESCOPETTE_COLUMNS if game == ESCOPETTE else _tarot_columns(evening_points)
    sort = request.GET.get("sort", "total")
    if sort not in {key for key, _label in columns}:
        sort = "total"
    direction = request.GET.get("dir")
    descending = (
        direction == "desc" if direction in ("asc", "desc") else standings.DEFAULT_DESCENDING[sort]
    )
    return game, sort, descending


def _columns(
    url: str, sort: str, descending: bool, *, game: str = TAROT, evening_points: bool = False
) -> list[Column]:
    """The table's header: each column's label, sorting state and the links that sort by it."""
    escopette = game == ESCOPETTE
    fragment = f"#{ESCOPETTE_SECTION}" if escopette else ""
    columns = []
    for key, label in ESCOPETTE_COLUMNS if escopette else _tarot_columns(evening_points):
        state = ("descending" if descending else "ascending") if key == sort else ""
        down = not descending if key == sort else standings.DEFAULT_DESCENDING[key]
        game_query = {"game": game} if escopette else {}
        query = urlencode({**game_query, "sort": key, "dir": "desc" if down else "asc"})
        columns.append(Column(key, str(label), f"{url}?{query}{fragment}", state, f"{url}?{query}"))
    return columns


def standings_context(
    season: Season | None,
    named: tuple[str, Any] | None = None,
    *,
    sort: str = "total",
    descending: bool = True,
    escopette_sort: str = "total",
    escopette_descending: bool = True,
    htmx: bool = False,
    on_club_page: bool = False,
    scale: tuple[int, ...] | None = None,
) -> dict[str, Any]:
    """What ``seasons/_standings_table.html`` reads: French Tarot's table, and L'escopette's
    when the season has games of it (``escopette_standings`` is empty else). With a
    ``scale``, French Tarot's table has the evening ranking points too. ``named``: the
    season's ``standings_of``, added up only when a table is drawn."""
    if season is None:
        return {"season": None, "standings": [], "standings_columns": [], "escopette_standings": []}
    name, by_kind = named or standings.standings_of(season.club_id, season.start, season.end)
    url = reverse("season", args=[season.club_id, season.pk])

    def cache_key(kind: str, sort: str, descending: bool) -> str:
        state = (season.pk, f"{kind}.{name}", sort, descending, htmx, on_club_page, get_language())
        return ":".join(map(str, state))

    query = urlencode({"season": season.pk})

    def table() -> list[ShownRow]:
        """French Tarot's rows, worded only when the table is drawn (not from the cache)."""
        season_stats = by_kind[TAROT]
        rows = season_stats.rows if scale is None else with_evening_points(season_stats, scale)
        ordered = standings.sort_rows(rows, sort, descending)
        return shown_rows(ordered, season.club_id, query, scale is not None)

    return {
        "season": season,
        "standings_cache_key": (f"{cache_key(TAROT, sort, descending)}:{scale}"),
        "standings_on_club_page": on_club_page,
        "standings": SimpleLazyObject(table),
        "standings_evening_points": scale is not None,
        # The headers are kept under what makes their columns; worded only when drawn.
        "standings_header": f"{url}.{sort}.{descending}.{scale is not None}",
        "standings_columns": SimpleLazyObject(
            lambda: _columns(url, sort, descending, evening_points=scale is not None)
        ),
        "standings_htmx": htmx,
        "player_query": query,
        "escopette_stats": SimpleLazyObject(lambda: by_kind[ESCOPETTE]),
        "escopette_standings": SimpleLazyObject(
            lambda: standings.sort_rows(
                by_kind[ESCOPETTE].rows, escopette_sort, escopette_descending
            )
        ),
        "escopette_header": f"{ESCOPETTE}.{url}.{escopette_sort}.{escopette_descending}",
        "escopette_columns": SimpleLazyObject(
            lambda: _columns(url, escopette_sort, escopette_descending, game=ESCOPETTE)
        ),
        "escopette_cache_key": cache_key(ESCOPETTE, escopette_sort, escopette_descending),
    }


def club_season_context(club: Club) -> dict[str, Any]:
    """The current season's standings for the club page (a few queries), l'escopette's too
    when the season has some; the template includes ``seasons/_standings_table.html``."""
    season = standings.current_season(standings.club_seasons(club), timezone.localdate())
    scale = evening_points_scale(club)
    return {**standings_context(season, on_club_page=True, scale=scale), "club": club}
