"""A season's standings (or all time's): ranked rows, their sorting, and each evening's points.

Built from the period's sums (``periods``), so a page makes the same few queries whatever the
number of deals, evenings or players. Owns ``StandingRow``, ``SeasonStats``, the
``season_stats*`` and ``for_season*`` readers, the sorting of the standings table and
``current_season``. The ``*_by_kind`` readers give both games with the queries of one.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from scorekeeper.models import Club, Player, Season
from scorekeeper.reads.club_figures import player_names
from scorekeeper.reads.nights import Nights
from scorekeeper.reads.periods import EveningPoint, Period, season_periods
from scorekeeper.reads.tallies import KINDS, TAROT
from scorekeeper.server.prepared import Prepared
from scorekeeper.server.wording import name_order


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


SORTS: dict[str, Any] = {
    "name": lambda row: name_order(row.name),
    "total": lambda row: row.total,
    "evenings": lambda row: row.evenings,
    "deals": lambda row: row.deals,
    "takes": lambda row: row.takes,
    "made": lambda row: row.made,
    "games": lambda row: row.games,
    "won": lambda row: row.won,
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


@dataclass
class SeasonStats:
    """A season's standings and, for its chart, each player's points evening by evening."""

    rows: list[StandingRow]  # ranked by total
    evenings: list[EveningPoint]  # in date order
    points: dict[tuple[int, int], int]  # (evening id, player id) -> points that evening
    deals: int = 0  # deals played (passed deals not counted)
    key: Hashable = None  # what the figures were built from: equal keys, equal figures
    games: int = 0  # L'escopette: games with at least one deal
    unreplayable: int = 0  # L'escopette: games the rules cannot replay (no winner counted)
    nights: Nights | None = None  # the range's fingerprint the figures were added up under
    #: Added up afresh and kept in the shared cache (``Period.shared``): what is drawn from
    #: them is worth keeping there too; not the figures of a deal just saved.
    shared: bool = False
    #: Tonight's evenings added to settled sums (``Period.base``): their key, and how many of
    #: the evenings they hold (the first ones).
    base: tuple[Hashable, int] | None = None

    @property
    def digest(self) -> str:
        """A short name for ``key``, for caches: it changes whenever a figure may have."""
        return hashlib.sha1(repr(self.key).encode(), usedforsecurity=False).hexdigest()


def cumulative_totals(
    evenings: Sequence[EveningPoint], points: dict[tuple[int, int], int]
) -> dict[int, list[int]]:
    """Every player's totals after each of these evenings, from one pass over the points (a
    chart of a dozen players over hundreds of evenings); points of other evenings left out."""
    position = {evening.evening_id: index for index, evening in enumerate(evenings)}
    deltas: dict[int, list[int]] = {}
    for (evening_id, player_id), scored in points.items():
        index = position.get(evening_id)
        if index is None:
            continue
        row = deltas.get(player_id)
        if row is None:
            row = deltas[player_id] = [0] * len(evenings)
        row[index] += scored
    return {player_id: list(accumulate(row)) for player_id, row in deltas.items()}


def _stats(period: Period, names: dict[int, str]) -> SeasonStats:
    rows = [
        StandingRow(
            player_id=player_id,
            name=names.get(player_id, ""),
            total=tally.total,
            evenings=period.played_evenings[player_id],
            deals=tally.deals,
            takes=tally.takes,
            made=tally.made,
            games=tally.games,
            won=tally.won,
        )
        for player_id, tally in period.tallies.items()
    ]
    return SeasonStats(
        rows=_rank(rows),
        evenings=list(period.evenings),
        points=period.points,
        deals=period.played,
        key=(period.key, tuple((row.player_id, row.name) for row in rows)),
        games=period.games,
        unreplayable=period.unreplayable,
        nights=period.nights,
        shared=period.shared,
        base=period.base,
    )


def season_stats_by_kind(
    club: Club | int,
    *,
    start: dt.date | None = None,
    end: dt.date | None = None,
    kinds: Sequence[str] = KINDS,
) -> dict[str, SeasonStats]:
    """Each game's standings: two queries when nothing changed, three or more else."""
    periods = season_periods(club, start, end, kinds)
    ids = {player_id for period in periods.values() for player_id in period.tallies}
    names: dict[int, str] = {}
    if ids:
        club_id = club.pk if isinstance(club, Club) else club
        names = player_names(club_id)  # one query, compiled once
        others = [player_id for player_id in ids if player_id not in names]
        if others:  # a player of another club (never, unless rows were moved by hand)
            names.update(Player.objects.filter(pk__in=others).values_list("pk", "name"))
    return {kind: _stats(period, names) for kind, period in periods.items()}


def season_stats(
    club: Club | int,
    *,
    start: dt.date | None = None,
    end: dt.date | None = None,
    kind: str = TAROT,
) -> SeasonStats:
    """Standings and per-evening points: two queries when nothing changed, three else."""
    return season_stats_by_kind(club, start=start, end=end, kinds=(kind,))[kind]


def for_season(season: Season, kind: str = TAROT) -> SeasonStats:
    return season_stats(season.club_id, start=season.start, end=season.end, kind=kind)


def for_season_by_kind(season: Season, kinds: Sequence[str] = KINDS) -> dict[str, SeasonStats]:
    return season_stats_by_kind(season.club_id, start=season.start, end=season.end, kinds=kinds)


SEASONS_OF = 2_000_000_047  # the stand-in club id the seasons' query is compiled with
_seasons = Prepared(lambda club: Season.objects.filter(club_id=club), SEASONS_OF)


def club_seasons(club: Club) -> list[Season]:
    """The club's seasons, latest first, each knowing its club (one query, compiled once:
    the season page and the figures pages ask it after every deal saved)."""
    seasons = _seasons.objects(club.pk)
    for season in seasons:
        season.club = club
    return seasons


def current_season(club: Club | int, today: dt.date) -> Season | None:
    """The season covering today (the one that started last); else the latest one."""
    club_id = club.pk if isinstance(club, Club) else club
    seasons = Season.objects.filter(club_id=club_id)
    season = (
        seasons.filter(start__lte=today, end__gte=today).order_by("-start", "end", "pk").first()
    )
    if season is None:
        season = seasons.order_by("-end", "-start", "-pk").first()
    return season
