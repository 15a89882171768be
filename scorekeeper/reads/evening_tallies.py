"""The per-evening figures, stored in the database (``EveningTally``) under the evening's version.

Every change to an evening's deals bumps its ``version``; figures stored under an older one
are aggregated again (``tallies``) and stored for the next reader, so after a deal is saved
only that evening is read again. A copy is also kept in this process under the evening's
identity and version; tonight's figures, never stored, go to the shared cache instead, for
the other workers. Tonight's evening just after a deal saved (its version names that deal
as its only change, ``Evening.added_deal``) is not even read whole: the deal's scores are
added to this process's figures of the version before, when those are known to be exactly
that version's (``tallies.with_added_deal``). Owns ``evening_summaries`` (each evening's
figures, however they are found) and ``evening_refs`` (a club's evenings over a range of
dates).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Sequence
from dataclasses import astuple
from typing import Any

from django.db import connections

from scorekeeper.models import ADDED_DEAL, Club, EveningTally
from scorekeeper.reads.nights import CLUB, START, club_evenings
from scorekeeper.reads.tallies import (
    ESCOPETTE,
    TAROT,
    EveningRef,
    EveningSummary,
    Tally,
    aggregate,
    aggregate_escopette,
    with_added_deal,
)
from scorekeeper.server import shared_cache
from scorekeeper.server.prepared import Prepared


def database_name() -> str:
    """The database read, for cache keys: two test databases never share figures."""
    return str(connections["default"].settings_dict["NAME"])


def _encode(summary: EveningSummary) -> dict[str, list[Any]]:
    return {str(player_id): list(astuple(tally)) for player_id, tally in summary.tallies.items()}


def _decode(tallies: dict[str, list[Any]]) -> dict[int, Tally]:
    return {int(player_id): Tally(*values) for player_id, values in tallies.items()}


# Copies of stored figures in this process, under the evening's identity and version: a
# season changed by one deal reads that evening again, not all of them.
_copies = shared_cache.LocalMemo(4000)


def _copy_key(ref: EveningRef, kind: str, version: int | None = None) -> tuple[Hashable, ...]:
    """Names the figures of the evening at its version (or at ``version``)."""
    at = ref.version if version is None else version
    return (database_name(), kind, ref.evening_id, ref.created_at, at)


def _shared_name(key: tuple[Hashable, ...]) -> str:
    return shared_cache.name_for("evening.tonight", key)


def _from_shared(
    refs: Sequence[EveningRef], kind: str, found: dict[int, EveningSummary]
) -> list[EveningRef]:
    """Of ``refs``, those whose figures no process has put in the shared cache at their
    versions (one round trip); the others' figures go into ``found``, and are kept here."""
    keys = [_copy_key(ref, kind) for ref in refs]
    names = [_shared_name(key) for key in keys]
    shared = shared_cache.shared_many(names)
    left = []
    for ref, key, name in zip(refs, keys, names, strict=True):
        summary = shared.get(name)
        if summary is None:
            left.append(ref)
        else:
            found[ref.evening_id] = summary
            _copies.set(key, summary)
    return left


def _with_added_deal(ref: EveningRef, kind: str) -> EveningSummary | None:
    """Tonight's evening just after a deal saved: the figures of the version before (this
    process's, else the shared cache's), when they are exactly that version's, with the deal
    added (one query for its scores); None when that cannot be done (the evening is
    aggregated whole)."""
    if ref.added_deal is None or kind != TAROT:  # L'escopette's winners: its games replayed
        return None
    before_key = _copy_key(ref, kind, ref.version - 1)
    before = _copies.get(before_key)
    if before is None:
        name = _shared_name(before_key)
        before = shared_cache.shared_many([name]).get(name)
    if before is None or before.version != ref.version - 1:
        return None
    return with_added_deal(before, ref, kind)


def _stored(refs: Sequence[EveningRef], kind: str) -> dict[int, EveningSummary]:
    """The stored figures still at their evening's version (one query per 500 evenings)."""
    versions = {ref.evening_id: ref.version for ref in refs}
    found: dict[int, EveningSummary] = {}
    ids = list(versions)
    if not ids:
        return found
    for start in range(0, len(ids), 500):  # within every database's parameter limit
        rows = EveningTally.objects.filter(kind=kind, evening_id__in=ids[start : start + 500])
        for evening_id, version, played, games, tallies in rows.values_list(
            "evening_id", "version", "played", "games", "tallies"
        ):
            if versions[evening_id] == version:
                found[evening_id] = EveningSummary(_decode(tallies), played, games)
    return found


def _store(refs: Sequence[EveningRef], kind: str, summaries: Sequence[EveningSummary]) -> None:
    """Keep the figures just aggregated, under the version read before aggregating them.

    The aggregation saw at least that version, so a stored row never claims to be newer
    than what it holds; two workers storing at once both write the truth of a moment.
    """
    EveningTally.objects.bulk_create(
        [
            EveningTally(
                evening_id=ref.evening_id,
                kind=kind,
                version=ref.version,
                played=summary.played,
                games=summary.games,
                tallies=_encode(summary),
            )
            for ref, summary in zip(refs, summaries, strict=True)
        ],
        update_conflicts=True,
        unique_fields=["evening", "kind"],
        update_fields=["version", "played", "games", "tallies"],
        batch_size=500,
    )


def evening_summaries(
    refs: Sequence[EveningRef], kind: str = TAROT, *, store: bool = True
) -> list[EveningSummary]:
    """Each evening's figures: stored ones at the evening's version, the others aggregated
    (one query per 500 evenings) and stored for the next reader.

    ``store=False`` is for tonight's evenings, whose version changes with every deal saved:
    their figures are neither looked for in the database nor written there (a read writes
    nothing while a club night goes on); this process keeps its copy, and the shared cache
    one for the other processes (``shared_cache.TONIGHT_SECONDS``): the worker that shows the
    season next takes the evenings another has read since it last looked.
    """
    found: dict[int, EveningSummary] = {}
    unknown: list[EveningRef] = []
    for ref in refs:
        copy = _copies.get(_copy_key(ref, kind))
        if copy is None:
            unknown.append(ref)
        else:
            found[ref.evening_id] = copy
    if not store and unknown:
        unknown = _from_shared(unknown, kind, found)
    if not store and len(unknown) == 1:  # one evening changed: perhaps by one deal saved
        # (several changed evenings are aggregated in one query, cheaper than one each)
        copy = _with_added_deal(unknown[0], kind)
        if copy is not None:
            found[unknown[0].evening_id] = copy
    if store:
        found.update(_stored(unknown, kind))
    missing = [ref for ref in refs if ref.evening_id not in found]
    for start in range(0, len(missing), 500):
        chunk = missing[start : start + 500]
        aggregated = aggregate_escopette(chunk) if kind == ESCOPETTE else aggregate(chunk, kind)
        summaries = list(aggregated.values())
        if store:
            _store(chunk, kind, summaries)
        for ref, summary in zip(chunk, summaries, strict=True):
            found[ref.evening_id] = summary
    for ref in unknown:
        _copies.set(_copy_key(ref, kind), found[ref.evening_id])
    if not store:
        shared = {_shared_name(_copy_key(ref, kind)): found[ref.evening_id] for ref in unknown}
        shared_cache.share_many(shared, shared_cache.TONIGHT_SECONDS)
    return [found[ref.evening_id] for ref in refs]


def evening_refs(
    club: Club | int, *, start: dt.date | None = None, end: dt.date | None = None
) -> list[EveningRef]:
    """The club's evenings from start to end, in date order (one query)."""
    club_id = club.pk if isinstance(club, Club) else club
    return [
        EveningRef(*row)
        for row in club_evenings(club_id, start, end)
        .order_by("date", "pk")
        .values_list("pk", "date", "place", "created_at", "version", ADDED_DEAL)
    ]


# One night's evenings (tonight's tables, after each deal saved), compiled once.
_one_night = Prepared(
    lambda club, date: (
        club_evenings(club, date, date)
        .order_by("pk")
        .values("pk", "date", "place", "created_at", "version", added=ADDED_DEAL)
    ),
    CLUB,
    START,
)


def night_refs(club_id: int, date: dt.date) -> list[EveningRef]:
    """The club's evenings of one date, in date order as ``evening_refs`` gives them (one
    query, compiled once)."""
    return [EveningRef(*row) for row in _one_night.tuples(club_id, date)]
