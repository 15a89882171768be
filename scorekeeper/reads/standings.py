"""A season's standings (or all time's): ranked rows, their sorting, and each evening's points.

Added up from the evenings' stored figures (``models.figures``, kept by the writes), so a page
makes the same few queries whatever the number of deals, evenings or players. A tournament's
tables and rounds are one evening here, a *night*: one line, one point, the sum of a player's
tables (its ``EveningPoint`` carries the tournament and its first evening's id). What is added up
is kept in the cache under the digest of the range's evenings at their versions (one query). Owns
``StandingRow``, ``SeasonStats``, ``EveningPoint``, the lazy ``standings_of`` reader (both
games with the queries of one), the sorting of the standings table and ``current_season``.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from django.core.cache import cache
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils.functional import SimpleLazyObject

from scorekeeper.models import Club, EveningFigures, PlayerEvening, Season
from scorekeeper.models.figures import KINDS
from scorekeeper.reads.club_figures import digest
from scorekeeper.reads.deal_facts import evening_marks
from scorekeeper.server.wording import name_order

STANDINGS_SECONDS = 86400  # a day: a write makes the next view add them up again anyway


@dataclass
class StandingRow:
    player_id: int
    name: str
    total: int = 0
    evenings: int = 0
    deals: int = 0
    takes: int = 0
    made: int = 0
    rank: int = 0
    games: int = 0  # L'escopette: games played
    won: int = 0  # L'escopette: games won
    unreplayable: int = 0  # L'escopette: games the rules cannot replay (no winner counted)
    evening_points: float | None = None  # the club's evening ranking points, when it gives them

    @property
    def average(self) -> float | None:
        """Points per deal played."""
        return round(self.total / self.deals, 1) if self.deals else None


# The figures a night adds to a row: all but the last (no winner counted) are columns too.
_SUMMED = ("total", "evenings", "deals", "takes", "made", "games", "won", "unreplayable")
SORTS: dict[str, Any] = {
    "name": lambda row: name_order(row.name),
    **{figure: attrgetter(figure) for figure in _SUMMED[:-1]},
    "average": lambda row: row.average if row.average is not None else float("-inf"),
    "evening_points": lambda row: row.evening_points or 0,
}
#: The order a column sorts in when first chosen: names A to Z, figures highest first.
DEFAULT_DESCENDING = {name: name != "name" for name in SORTS}


def sort_rows(rows: Iterable[StandingRow], sort: str, descending: bool) -> list[StandingRow]:
    """Sorted by the column; ties keep the order of the ranking."""
    key = SORTS.get(sort, SORTS["total"])
    ordered = sorted(rows, key=lambda row: (row.rank, name_order(row.name)))
    return sorted(ordered, key=key, reverse=descending)


def _rank(rows: list[StandingRow]) -> list[StandingRow]:
    """Rank by total points, highest first; equal totals share a rank."""
    ordered = sorted(rows, key=lambda row: (-row.total, name_order(row.name)))
    for position, row in enumerate(ordered, start=1):
        previous = ordered[position - 2] if position > 1 else None
        row.rank = previous.rank if previous and previous.total == row.total else position
    return ordered


class EveningPoint(NamedTuple):
    """One evening on a chart's axis (a tuple: the cache holds hundreds, read after a save)."""

    evening_id: int
    date: dt.date
    place: str = ""
    tournament_id: int | None = None  # a tournament's night: all its tables and rounds
    rules: str = "{}"  # its (first table's) rules as stored, in JSON: the standings' (0 query)


@dataclass
class SeasonStats:
    """A season's standings and, for its chart, each player's points evening by evening."""

    rows: list[StandingRow]  # ranked by total
    evenings: list[EveningPoint]  # in date order
    points: dict[tuple[int, int], int]  # (night's evening id, player id) -> points that night
    deals: int = 0  # deals played (passed deals not counted)
    games: int = 0  # L'escopette: games with at least one deal
    unreplayable: int = 0  # L'escopette: games the rules cannot replay (no winner counted)
    digest: str = ""  # names the figures, for caches: the range's evenings at their versions
    settled: tuple[str, int] = ("", 0)  # the settled evenings' name, and how many nights lead
    nights: tuple[dt.date, ...] = ()  # the evenings' dates (``night_lines``), for the chart
    lines: dict[int, list[int]] = field(default_factory=dict)  # player id -> total after each


def night_lines(
    evenings: Sequence[EveningPoint], points: dict[tuple[int, int], int]
) -> tuple[tuple[dt.date, ...], dict[int, list[int]]]:
    """The nights of these evenings (their dates in order: a club night's tables are one) and
    every player's total after each, from one pass over the points (a chart of a dozen
    players over hundreds of evenings); points of other evenings left out."""
    dates: list[dt.date] = []
    position: dict[int, int] = {}
    for evening in evenings:
        if not dates or dates[-1] != evening.date:
            dates.append(evening.date)
        position[evening.evening_id] = len(dates) - 1
    deltas: dict[int, list[int]] = {}
    for (evening_id, player_id), scored in points.items():
        index = position.get(evening_id)
        if index is None:
            continue
        row = deltas.get(player_id)
        if row is None:
            row = deltas[player_id] = [0] * len(dates)
        row[index] += scored
    return tuple(dates), {player_id: list(accumulate(row)) for player_id, row in deltas.items()}


#: A stored evening's row as a night reads it: its tournament and that tournament's name, if any.
NIGHT_FIELDS = (
    "kind",
    "evening_id",
    "evening__date",
    "evening__place",
    "evening__tournament_table__round__tournament_id",
    "evening__tournament_table__round__tournament__name",
)


def standings_of(
    club_id: int, start: dt.date | None, end: dt.date | None, kinds: Sequence[str] = KINDS
) -> tuple[str, Any]:
    """The range's name for caches (its evenings at their versions: one query, whatever the
    number of deals) and each game's standings, added up when first read (lazy: a page whose
    fragment is kept reads nothing more). Added up in two parts, each kept in the cache under
    the digest of its evenings (a write raises its evening's version: the next view adds that
    part up again): the settled evenings (before the latest date) and tonight's. After a deal
    saved tonight, only tonight's evenings are added up again (two queries), and joined."""
    marks = evening_marks(club_id, start, end)  # first: never older than the rows read after
    if not marks:
        none = SimpleLazyObject(lambda: _added_up(kinds, digest(marks), evening_id__in=[]))
        return digest(marks), none
    latest = marks[-1].date
    settled = [mark for mark in marks if mark.date < latest]
    settled_name, tonight_name = digest(settled), digest(marks[len(settled) :])
    name = f"{settled_name}.{tonight_name}"  # the range's
    games = ".".join(kinds)

    def added_up() -> dict[str, SeasonStats]:
        key = f"standings.settled.{club_id}.{start}.{games}.{settled_name}"
        bounds = {"evening__date__gte": start} if start else {}
        before = _kept(key, kinds, evening__club_id=club_id, evening__date__lt=latest, **bounds)
        # Tonight's evenings by id: no filter through the evenings' table.
        tonight = [mark.evening_id for mark in marks[len(settled) :]]
        key = f"standings.tonight.{club_id}.{games}.{tonight_name}"
        after = _kept(key, kinds, evening_id__in=tonight)
        return {
            kind: _joined(before[kind], after[kind], f"{kind}.{name}", f"{kind}.{settled_name}")
            for kind in kinds
        }

    return name, SimpleLazyObject(added_up)


def _kept(key: str, kinds: Sequence[str], **where: Any) -> dict[str, SeasonStats]:
    """``_added_up`` kept in the cache under ``key``, which names the evenings it reads."""
    stats: dict[str, SeasonStats] | None = cache.get(key)
    if stats is None:
        stats = _added_up(kinds, "", **where)
        cache.set(key, stats, STANDINGS_SECONDS)
    return stats


def _joined(before: SeasonStats, after: SeasonStats, name: str, settled: str) -> SeasonStats:
    """The standings of two ranges, the second after the first, as one (a tournament's night
    with tables on both sides stays one night)."""
    rows = {row.player_id: replace(row) for row in before.rows}
    for row in after.rows:
        total = rows.setdefault(row.player_id, replace(row, **dict.fromkeys(_SUMMED, 0)))
        for figure in _SUMMED:
            setattr(total, figure, getattr(total, figure) + getattr(row, figure))
    first = {e.tournament_id: e.evening_id for e in before.evenings if e.tournament_id}
    again = {
        e.evening_id: first[e.tournament_id] for e in after.evenings if e.tournament_id in first
    }
    points = dict(before.points)
    for (evening_id, player_id), scored in after.points.items():
        night = again.get(evening_id, evening_id)
        if night != evening_id and (night, player_id) in before.points:
            rows[player_id].evenings -= 1
        points[night, player_id] = points.get((night, player_id), 0) + scored
    evenings = [*before.evenings, *(e for e in after.evenings if e.evening_id not in again)]
    if again:  # a night across both: its lines drawn again
        nights, lines = night_lines(evenings, points)
    else:  # the settled lines go on with tonight's nights
        nights, lines = (*before.nights, *after.nights), {}
        for player_id in {**before.lines, **after.lines}:
            head = before.lines.get(player_id, [0] * len(before.nights))
            tail = after.lines.get(player_id, [0] * len(after.nights))
            lines[player_id] = [*head, *(total + (head[-1] if head else 0) for total in tail)]
    return SeasonStats(
        rows=_rank(list(rows.values())),
        evenings=evenings,
        points=points,
        deals=before.deals + after.deals,
        games=before.games + after.games,
        unreplayable=before.unreplayable + after.unreplayable,
        digest=name,
        settled=("" if again else settled, len(before.nights)),  # a night across both: none
        nights=nights,
        lines=lines,
    )


def _added_up(kinds: Sequence[str], marks: str, **where: Any) -> dict[str, SeasonStats]:
    """Each game's standings, added up from the stored figures of the evenings ``where``
    says (two queries, whatever the number of deals: the players' rows with their nights, the
    evenings' counts; unordered, sorted here); only the columns the standings show are read."""
    if set(kinds) != set(KINDS):  # every game's rows (KINDS: Game.Kind's): no filter to build
        where = {"kind__in": kinds, **where}
    rows = PlayerEvening.objects.filter(**where)
    stats = {kind: SeasonStats([], [], {}, digest=f"{kind}.{marks}") for kind in kinds}
    standing: dict[str, dict[int, StandingRow]] = {kind: {} for kind in kinds}
    nights: dict[tuple[str, int], int] = {}  # kind, tournament id or -evening id -> evening id
    for (
        kind, evening_id, date, place, tournament_id, name, player_id, player_name,
        total, deals, takes, made, games, won, rules,
    ) in sorted(rows.values_list(
        *NIGHT_FIELDS, "player_id", "player__name",
        "total", "deals", "takes", "made", "games", "won", Cast("evening__rules", TextField()),
    ), key=itemgetter(2, 1, 6)):  # fmt: skip
        key = (kind, tournament_id or -evening_id)
        night = nights.get(key)
        if night is None:
            night = nights[key] = evening_id
            point = EveningPoint(evening_id, date, name or place, tournament_id, rules)
            stats[kind].evenings.append(point)
        points = stats[kind].points
        points[night, player_id] = points.get((night, player_id), 0) + total
        row = standing[kind].get(player_id)
        if row is None:
            row = standing[kind][player_id] = StandingRow(player_id, player_name)
        row.total, row.deals, row.takes = row.total + total, row.deals + deals, row.takes + takes
        row.made, row.games, row.won = row.made + made, row.games + games, row.won + won
    counts = EveningFigures.objects.filter(**where)
    # Added up here: a row an evening, and a plain query costs half of a GROUP BY to build.
    for kind, played, games, unreplayable in counts.values_list(
        "kind", "played", "games", "unreplayable"
    ):
        stats[kind].deals += played
        stats[kind].games += games
        stats[kind].unreplayable += unreplayable
    for kind in kinds:
        played = Counter(player_id for _night, player_id in stats[kind].points)
        for row in standing[kind].values():
            row.evenings = played[row.player_id]
        stats[kind].rows = _rank(list(standing[kind].values()))
        stats[kind].nights, stats[kind].lines = night_lines(
            stats[kind].evenings, stats[kind].points
        )
    return stats


def club_seasons(club: Club) -> list[Season]:
    """The club's seasons, latest first, each knowing its club (one query)."""
    seasons = list(Season.objects.filter(club_id=club.pk))
    for season in seasons:
        season.club = club
    return seasons


def current_season(seasons: list[Season], today: dt.date) -> Season | None:
    """The season covering today (the one that started last); else the latest one."""
    covering = [season for season in seasons if season.start <= today <= season.end]
    if covering:
        return max(covering, key=lambda season: (season.start, -season.end.toordinal(), -season.pk))
    return max(seasons, key=lambda season: (season.end, season.start, season.pk), default=None)
