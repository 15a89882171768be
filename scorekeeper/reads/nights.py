"""A range of a club's evenings in two parts: the settled ones, before the latest date, and
tonight's, at the latest date; one grouped query fingerprints both.

On a club night a deal is saved every few seconds, and only tonight's part changes: a read
keeps what it built from the settled evenings under their own fingerprint and adds tonight's
evenings to it. When tonight holds one evening, its row of the query is that evening's own:
its identity, version and place come with the fingerprint, and nothing more is read to know
which evening changed. Owns ``Part``, ``Nights``, ``nights`` and ``club_evenings`` (a range
of a club's evenings as a queryset, for the reads that split it as ``nights`` does).
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, fields

from django.db.models import (
    BooleanField,
    Case,
    Count,
    Exists,
    F,
    Max,
    Min,
    OuterRef,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)

from scorekeeper.models import ADDED_DEAL, Evening, Game
from scorekeeper.server.prepared import Prepared


@dataclass(frozen=True)
class Part:
    """Some evenings, fingerprinted: this changes whenever one of them changes, comes or goes.

    Every change to an evening's deals, date or place bumps its version (services); an
    evening moving in or out changes the count and the sums of ids; created_at tells apart
    the rows of a database that reused an id (a test's rolled-back transaction).
    """

    count: int = 0
    ids: int = 0
    versions: int = 0
    mixed: int = 0
    first: dt.datetime | None = None
    last: dt.datetime | None = None
    escopette: int = 0  # evenings holding a game of L'escopette
    place: str = ""  # the greatest place: the evening's own when there is one
    #: The deal whose saving made the evening's version (``Evening.added_deal``), when the
    #: part is one evening and that was its only change; else meaningless or None.
    added: int | None = None


@dataclass(frozen=True)
class Nights:
    """A range's fingerprint: its latest date, the evenings before it, and tonight's."""

    latest: dt.date | None
    settled: Part
    tonight: Part

    @functools.cached_property
    def key(self) -> tuple[object, ...]:
        """Names every evening of the range at its version."""
        return (self.latest, _values(self.settled), _values(self.tonight))

    @functools.cached_property
    def settled_key(self) -> tuple[object, ...]:
        """Names the evenings before the latest date at their versions."""
        return (self.latest, _values(self.settled))

    @property
    def escopette(self) -> int:
        return self.settled.escopette + self.tonight.escopette

    def tonight_evening(self) -> tuple[int, dt.datetime, int, str] | None:
        """Tonight's evening (id, created_at, version, place) when it is the only one."""
        part = self.tonight
        if part.count != 1 or part.first is None:
            return None
        return (part.ids, part.first, part.versions, part.place)


_PART_FIELDS = tuple(field.name for field in fields(Part))


def _values(part: Part) -> tuple[object, ...]:
    """The part's fields in order, as ``astuple`` gives them without its deep copy (numbers,
    moments and a place: nothing to copy), asked by every read of a season."""
    return tuple(getattr(part, name) for name in _PART_FIELDS)


# Stand-ins the queries are compiled with (no club has this id, no evening these dates).
CLUB, START, END = 2_000_000_011, dt.date(1, 2, 3), dt.date(1, 4, 5)
_prepared: dict[tuple[bool, bool, bool], Prepared] = {}


def club_evenings(club_id: int, start: dt.date | None, end: dt.date | None) -> QuerySet[Evening]:
    """The club's evenings from start to end (either open), as a queryset."""
    evenings = Evening.objects.filter(club_id=club_id)
    if start is not None:
        evenings = evenings.filter(date__gte=start)
    if end is not None:
        evenings = evenings.filter(date__lte=end)
    return evenings


def nights(
    club_id: int, start: dt.date | None, end: dt.date | None, *, escopette: bool = False
) -> Nights:
    """The fingerprint of the club's evenings from start to end (one query); ``escopette``:
    count the evenings that hold a game of L'escopette too."""
    shape = (start is not None, end is not None, escopette)
    prepared = _prepared.get(shape)
    if prepared is None:
        sentinels = [CLUB] + [START] * shape[0] + [END] * shape[1]

        def build(club: int, *dates: dt.date) -> QuerySet[Evening]:
            given = iter(dates)
            low = next(given) if shape[0] else None
            high = next(given) if shape[1] else None
            return _query(club_evenings(club, low, high), escopette=escopette)

        prepared = _prepared[shape] = Prepared(build, *sentinels)
    values = [club_id] + [date for date in (start, end) if date is not None]
    return _nights(prepared.rows(*values))


def _query(evenings: QuerySet[Evening], *, escopette: bool) -> QuerySet[Evening]:
    latest = Subquery(evenings.order_by("-date").values("date")[:1])
    tonight = Case(
        When(date__gte=latest, then=Value(True)), default=Value(False), output_field=BooleanField()
    )
    figures = {
        "count": Count("pk"),
        "ids": Sum("pk"),
        "versions": Sum("version"),
        "mixed": Sum(F("pk") * F("version")),
        "first": Min("created_at"),
        "last": Max("created_at"),
        "latest": Max("date"),
        "place": Max("place"),
        "added": Max(ADDED_DEAL),
    }
    if escopette:
        games = Game.objects.filter(evening_id=OuterRef("pk"), kind=Game.Kind.ESCOPETTE)
        figures["escopette"] = Count("pk", filter=Exists(games))
    return evenings.order_by().annotate(tonight=tonight).values("tonight").annotate(**figures)


def _nights(rows: list[dict[str, object]]) -> Nights:
    parts: dict[bool, Part] = {}
    date = None
    for row in rows:
        if row["tonight"]:
            date = row["latest"]
        parts[bool(row["tonight"])] = Part(
            count=row["count"],
            ids=row["ids"] or 0,
            versions=row["versions"] or 0,
            mixed=row["mixed"] or 0,
            first=row["first"],
            last=row["last"],
            escopette=row.get("escopette", 0),
            place=row["place"] or "",
            added=row["added"],
        )
    return Nights(date, parts.get(False, Part()), parts.get(True, Part()))
