"""What a range of evenings adds up to (a season, or all time), kept in the shared cache.

A ``Period`` adds up the stored per-evening figures (``evening_tallies``) of a club's evenings
between two dates. It is kept in the shared cache (Redis with several workers or machines)
under a one-row fingerprint of those evenings, so no figure lives in one process only: a
restart, another worker or another machine reads the same. ``season_periods`` reads several
games with one look at what changed: a range without L'escopette costs nothing more.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Exists, F, Max, Min, OuterRef, Sum

from scorekeeper.models import Club, Evening, Game
from scorekeeper.reads.evening_tallies import database_name, evening_refs, evening_summaries
from scorekeeper.reads.tallies import ESCOPETTE, EveningRef, Tally
from scorekeeper.server import shared_cache

SEASON_SECONDS = 7 * 86400  # a season's sums in the cache (a new fingerprint, a new key)


def clear_memo() -> None:
    """Forget the season sums kept in the caches (tests). The stored evening figures stay:
    they are read again only while their version is the evening's."""
    shared_cache.forget_local()
    cache.clear()


@dataclass
class EveningPoint:
    """One evening on a chart's axis."""

    evening_id: int
    date: dt.date
    place: str = ""


@dataclass(frozen=True)
class Period:
    """What a season adds up to; kept in memory, never changed once built."""

    key: Hashable
    evenings: tuple[EveningPoint, ...]  # evenings with at least one score, in date order
    tallies: dict[int, Tally]  # player id -> the period's figures
    played_evenings: dict[int, int]  # player id -> evenings at the table
    points: dict[tuple[int, int], int]  # (evening id, player id) -> points that evening
    played: int  # deals played
    games: int = 0  # L'escopette: games with at least one deal
    unreplayable: int = 0  # L'escopette: games the rules cannot replay (no winner counted)


def _fingerprint(club_id: int, start: dt.date | None, end: dt.date | None) -> tuple[Hashable, ...]:
    """One row that changes whenever an evening of the range changes, comes or goes.

    Every change to an evening's deals, date or place bumps its version (services); an
    evening moving in or out changes the count and the sums of ids; created_at tells apart
    the rows of a database that reused an id (a test's rolled-back transaction). Its last
    value counts the evenings holding a game of L'escopette (none: nothing to aggregate).
    """
    evenings = Evening.objects.filter(club_id=club_id)
    if start is not None:
        evenings = evenings.filter(date__gte=start)
    if end is not None:
        evenings = evenings.filter(date__lte=end)
    row = evenings.aggregate(
        count=Count("pk"),
        ids=Sum("pk"),
        versions=Sum("version"),
        mixed=Sum(F("pk") * F("version")),
        first=Min("created_at"),
        last=Max("created_at"),
        escopette=Count(
            "pk", filter=Exists(Game.objects.filter(evening_id=OuterRef("pk"), kind=ESCOPETTE))
        ),
    )
    return tuple(row.values())


def _build_period(key: Hashable, refs: Sequence[EveningRef], kind: str) -> Period:
    tallies: dict[int, Tally] = {}
    played_evenings: dict[int, int] = {}
    points: dict[tuple[int, int], int] = {}
    evenings: list[EveningPoint] = []
    played = games = unreplayable = 0
    for ref, summary in zip(refs, evening_summaries(refs, kind), strict=True):
        if not summary.tallies:
            continue
        evenings.append(EveningPoint(ref.evening_id, ref.date, ref.place))
        played += summary.played
        games += summary.games
        unreplayable += summary.unreplayable
        for player_id, tally in summary.tallies.items():
            tallies.setdefault(player_id, Tally()).add(tally)
            played_evenings[player_id] = played_evenings.get(player_id, 0) + 1
            points[ref.evening_id, player_id] = tally.total
    return Period(
        key, tuple(evenings), tallies, played_evenings, points, played, games, unreplayable
    )


def season_periods(
    club: Club | int, start: dt.date | None, end: dt.date | None, kinds: Sequence[str]
) -> dict[str, Period]:
    """Each game's figures over the range, sharing one look at what changed (one query).

    When nothing changed that is all; else the evenings (one query) and each kind's
    aggregation, skipped for L'escopette when the range holds none of its games.
    """
    club_id = club.pk if isinstance(club, Club) else club
    fingerprint = _fingerprint(club_id, start, end)
    refs: list[EveningRef] | None = None
    periods: dict[str, Period] = {}
    for kind in kinds:
        key = (database_name(), kind, club_id, start, end, fingerprint)

        def build(key: Hashable = key, kind: str = kind) -> Period:
            nonlocal refs
            if kind == ESCOPETTE and not fingerprint[-1]:
                return Period(key, (), {}, {}, {}, 0)
            if refs is None:
                refs = evening_refs(club_id, start=start, end=end)
            return _build_period(key, refs, kind)

        digest = hashlib.sha1(repr(key).encode(), usedforsecurity=False).hexdigest()
        periods[kind] = shared_cache.get_or_build(f"season.{digest}", build, SEASON_SECONDS)
    return periods


def season_period(
    club: Club | int, start: dt.date | None, end: dt.date | None, kind: str
) -> Period:
    return season_periods(club, start, end, (kind,))[kind]
