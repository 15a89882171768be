"""What a range of evenings adds up to (a season, or all time), kept in the shared cache.

A ``Period`` adds up the stored per-evening figures (``evening_tallies``) of a club's evenings
between two dates. It is kept in the shared cache (Redis with several workers or machines)
under a one-query fingerprint of those evenings (``nights``), so no figure lives in one
process only: a restart, another worker or another machine reads the same. The sums of the
evenings before the latest date are kept as well, under their own fingerprint: a deal saved
tonight adds tonight's evening to them, and nothing older is added up again.
``season_periods`` reads several games with one look at what changed: a range without
L'escopette costs nothing more.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace

from django.core.cache import cache

from scorekeeper.models import Club
from scorekeeper.reads.evening_tallies import (
    database_name,
    evening_refs,
    evening_summaries,
    night_refs,
)
from scorekeeper.reads.nights import Nights, nights
from scorekeeper.reads.tallies import ESCOPETTE, EveningRef, EveningSummary, Tally, own_tally
from scorekeeper.server import shared_cache
from scorekeeper.server.shared_cache import LocalMemo

SEASON_SECONDS = 7 * 86400  # a season's sums in the cache (a new fingerprint, a new key)
#: The settled evenings are added up in blocks of this many (in date order), each kept under
#: its evenings' versions: a change to an old evening adds up its block again, not the range.
BLOCK = 32


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
    #: The range's fingerprint it was added up under (``season_periods``' periods): the reads
    #: that split the range as it does (the rules in force) need no other look at it.
    nights: Nights | None = field(default=None, compare=False)
    #: Kept in the shared cache (added up afresh): worth a place there for what is drawn from
    #: it too. False for tonight's evenings added to the settled sums (a deal just saved).
    shared: bool = field(default=False, compare=False)
    #: Tonight's evenings added to settled sums: those sums' key and how many evenings they
    #: hold (the first ones here). What is drawn of the settled evenings is kept under it.
    base: tuple[Hashable, int] | None = field(default=None, compare=False)


EMPTY = Period(None, (), {}, {}, {}, 0)


def _extend(
    key: Hashable, base: Period, refs: Sequence[EveningRef], summaries: Sequence[EveningSummary]
) -> Period:
    """``base`` followed by these evenings (later ones): the same figures, in the same order,
    as adding every evening up from the first; ``base`` is left as it was.

    The players these evenings leave out share ``base``'s tallies (a period is never changed
    once built): a deal saved tonight copies the tallies of tonight's players, not the
    club's hundreds."""
    tallies = dict(base.tallies)
    copied: set[int] = set()  # the players whose tally here is this period's own
    played_evenings = dict(base.played_evenings)
    points = dict(base.points)
    evenings = list(base.evenings)
    played, games, unreplayable = base.played, base.games, base.unreplayable
    for ref, summary in zip(refs, summaries, strict=True):
        if not summary.tallies:
            continue
        evenings.append(EveningPoint(ref.evening_id, ref.date, ref.place))
        played += summary.played
        games += summary.games
        unreplayable += summary.unreplayable
        # By player id: a summary's order is the database's, which PostgreSQL does not keep.
        for player_id, tally in sorted(summary.tallies.items()):
            own_tally(tallies, copied, player_id).add(tally)
            played_evenings[player_id] = played_evenings.get(player_id, 0) + 1
            points[ref.evening_id, player_id] = tally.total
    return Period(
        key, tuple(evenings), tallies, played_evenings, points, played, games, unreplayable
    )


def _merge(key: Hashable, blocks: Sequence[Period]) -> Period:
    """The periods one after the other, as one: the same figures, in the same order, as
    ``_extend`` adding up their evenings from the first. A player's tally is the block's own
    until another block adds to it (then a copy: the blocks are kept, never changed)."""
    tallies: dict[int, Tally] = {}
    copied: set[int] = set()
    played_evenings: dict[int, int] = {}
    points: dict[tuple[int, int], int] = {}
    evenings: list[EveningPoint] = []
    played = games = unreplayable = 0
    for block in blocks:
        evenings.extend(block.evenings)
        points.update(block.points)
        played += block.played
        games += block.games
        unreplayable += block.unreplayable
        for player_id, tally in block.tallies.items():
            played_evenings[player_id] = (
                played_evenings.get(player_id, 0) + block.played_evenings[player_id]
            )
            if player_id in tallies:
                own_tally(tallies, copied, player_id).add(tally)
            else:
                tallies[player_id] = tally
    return Period(
        key, tuple(evenings), tallies, played_evenings, points, played, games, unreplayable
    )


def _settled_and_tonight(
    key: Hashable, kind: str, settled: Sequence[EveningRef], tonight: Sequence[EveningRef]
) -> tuple[Period, list[EveningSummary]]:
    """The sums of the settled evenings, from blocks of ``BLOCK`` evenings kept in the shared
    cache under what they were added up from (their evenings at their versions), and
    tonight's evenings' figures: those of the blocks not kept and tonight's are read in one
    go (``evening_summaries``: the same queries however many blocks)."""
    blocks = _blocks(kind, settled, "season.block", _settled_blocks)
    wanted = [ref for chunk, _key, _name, block in blocks if block is None for ref in chunk]
    wanted.extend(tonight)
    read = dict(zip(wanted, evening_summaries(wanted, kind), strict=True))
    sums = _filled(blocks, read, SEASON_SECONDS, _settled_blocks)
    return _merge(key, sums), [read[ref] for ref in tonight]


# The blocks' sums copied in this process: the settled evenings' (kept a season's while in
# the shared cache) and tonight's (their versions change with every deal saved, so they are
# kept a short while; in the shared cache too: the next view, in whichever process, reuses
# them).
_settled_blocks = LocalMemo(256)
_tonight_blocks = LocalMemo(256)

_Block = tuple[Sequence[EveningRef], tuple[object, ...], str, "Period | None"]


def _blocks(kind: str, refs: Sequence[EveningRef], prefix: str, memo: LocalMemo) -> list[_Block]:
    """The evenings in blocks of ``BLOCK``: each with the key naming its evenings at their
    versions, its name in the caches, and its sums when a cache keeps them (one round trip
    for all those this process has not)."""
    named = []
    for start in range(0, len(refs), BLOCK):
        chunk = refs[start : start + BLOCK]
        names = tuple((r.evening_id, r.created_at, r.version, r.date, r.place) for r in chunk)
        block_key = (database_name(), kind, names)
        named.append((chunk, block_key, shared_cache.name_for(prefix, block_key)))
    kept = shared_cache.peek_many([name for _chunk, _key, name in named], memo=memo)
    return [(chunk, block_key, name, kept.get(name)) for chunk, block_key, name in named]


def _filled(
    blocks: list[_Block],
    read: dict[EveningRef, EveningSummary],
    seconds: int,
    memo: LocalMemo,
) -> list[Period]:
    """The blocks' sums: those kept as they are, the others added up from ``read`` and kept."""
    sums = []
    for chunk, block_key, name, block in blocks:
        if block is None:
            block = _extend(block_key, EMPTY, chunk, [read[ref] for ref in chunk])
            shared_cache.keep(name, block, seconds, memo=memo)
        sums.append(block)
    return sums


def _with_tonight(
    key: Hashable,
    kind: str,
    settled: Period,
    tonight: Sequence[EveningRef],
    summaries: Sequence[EveningSummary] | None = None,
) -> Period:
    """The settled sums with tonight's evenings added (their figures, unless ``summaries``
    gives them, read but neither stored nor shared). A club night of many tables is added in
    blocks of ``BLOCK`` evenings kept under their versions: a deal saved at one table adds
    up that table's block again, not the whole night."""
    base = (settled.key, len(settled.evenings))
    if len(tonight) <= BLOCK:
        if summaries is None:
            summaries = evening_summaries(tonight, kind, store=False)
        return replace(_extend(key, settled, tonight, summaries), base=base)
    read = dict(zip(tonight, summaries, strict=True)) if summaries is not None else {}
    blocks = _blocks(kind, tonight, "season.tonight", _tonight_blocks)
    wanted = [
        ref
        for chunk, _key, _name, block in blocks
        if block is None
        for ref in chunk
        if ref not in read
    ]
    if wanted:
        read.update(zip(wanted, evening_summaries(wanted, kind, store=False), strict=True))
    tonight_sums = _filled(blocks, read, shared_cache.TONIGHT_SECONDS, _tonight_blocks)
    return replace(_merge(key, [settled, *tonight_sums]), base=base)


def _tonight_refs(club_id: int, found: Nights) -> list[EveningRef]:
    """Tonight's evenings: from the fingerprint when there is one, else one query."""
    if found.latest is None:
        return []
    one = found.tonight_evening()
    if one is not None:
        evening_id, created_at, version, place = one
        added = found.tonight.added
        return [EveningRef(evening_id, found.latest, place, created_at, version, added)]
    return night_refs(club_id, found.latest)


def season_periods(
    club: Club | int, start: dt.date | None, end: dt.date | None, kinds: Sequence[str]
) -> dict[str, Period]:
    """Each game's figures over the range, sharing one look at what changed (one query).

    When nothing changed that is all. When only tonight's evenings changed (a deal saved),
    the sums of the settled evenings (kept under their own fingerprint) have tonight's
    evening added to them: one query aggregates it, nothing is written, and the period is
    kept in this process only. Else the evenings (one query) and each kind's aggregation,
    skipped for L'escopette when the range holds none of its games.
    """
    club_id = club.pk if isinstance(club, Club) else club
    found = nights(club_id, start, end, escopette=True)
    refs: list[EveningRef] | None = None
    tonight: list[EveningRef] | None = None
    periods: dict[str, Period] = {}
    for kind in kinds:
        key = (database_name(), kind, club_id, start, end, found.key)
        settled_key = (database_name(), kind, club_id, start, end, found.settled_key)

        def build(
            key: Hashable = key, settled_key: Hashable = settled_key, kind: str = kind
        ) -> tuple[Period, bool]:
            """The period, and whether it is worth a place in the shared cache."""
            nonlocal refs, tonight
            if kind == ESCOPETTE and not found.escopette:
                return Period(key, (), {}, {}, {}, 0), True
            name = shared_cache.name_for("season.settled", settled_key)
            settled = shared_cache.peek(name)
            if settled is not None:  # tonight's evenings only, not stored (they change)
                if kind == ESCOPETTE and not found.tonight.escopette:
                    return replace(settled, key=key), False
                if tonight is None:
                    tonight = _tonight_refs(club_id, found)
                return _with_tonight(key, kind, settled, tonight), False
            if refs is None:
                refs = evening_refs(club_id, start=start, end=end)
            split = sum(1 for ref in refs if found.latest is None or ref.date < found.latest)
            settled, summaries = _settled_and_tonight(settled_key, kind, refs[:split], refs[split:])
            shared_cache.keep(name, settled, SEASON_SECONDS)
            return _with_tonight(key, kind, settled, refs[split:], summaries), True

        name = shared_cache.name_for("season", key)
        period = shared_cache.peek(name)
        if period is None:
            # Added up from the settled sums and tonight's evening, a period costs another
            # process one query: cheaper than sending it through the shared cache.
            period, shared = build()
            period = replace(period, nights=found, shared=shared)
            shared_cache.keep(name, period, SEASON_SECONDS, shared=shared)
        periods[kind] = period
    return periods


def season_period(
    club: Club | int, start: dt.date | None, end: dt.date | None, kind: str
) -> Period:
    return season_periods(club, start, end, (kind,))[kind]
