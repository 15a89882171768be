"""Stored French Tarot deals as the club figures read them (``scoring.deal_facts.DealFacts``).

One evening's deals are read in two queries (its deals, then their scores) for any number of
evenings at once (500 a query), and kept in the shared cache and in this process under the
evening's identity and ``version``, which every change to its deals bumps: a saved deal
makes only its own evening read again, and not even that when the version names the deal as
its only change (``Evening.added_deal``) and the version before's deals are known, read
exactly at that version (by this process, or by another that shared them): the saved deal's
row and scores are added to them.
L'escopette games are not read at all.

A deal's ``ordinal`` is its place in the club's history, the same whatever range is read:
by the evening's date and id, the game's number and the deal's number.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import connections, models

from scorekeeper.models import ADDED_DEAL, Deal, DealScore, Game
from scorekeeper.reads.nights import Nights, club_evenings, nights
from scorekeeper.scoring.deal_facts import DealFacts
from scorekeeper.scoring.tarot import TARGETS
from scorekeeper.server import shared_cache
from scorekeeper.server.prepared import Prepared

TAROT = Game.Kind.TAROT
CHUNK = 500  # evenings a query: within every database's parameter limit
FACTS_SECONDS = 7 * 86400

_copies = shared_cache.LocalMemo(4000)
#: Tonight's deals known to be exactly their version's (read with it): a deal saved is added
#: to them.
_exact = shared_cache.LocalMemo(256)


@dataclass(frozen=True)
class EveningMark:
    """An evening as the figures see it: identity, version and date."""

    evening_id: int
    date: dt.date
    created_at: dt.datetime
    version: int
    added_deal: int | None = None  # the deal whose saving made this version, if only that

    @property
    def content(self) -> tuple[int, float, int]:
        """What names the evening's deals: a new version, new deals."""
        return (self.evening_id, self.created_at.timestamp(), self.version)


def database() -> str:
    """A short name of the database: figures of two databases never share a cache entry."""
    name = str(connections["default"].settings_dict["NAME"])
    return hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()[:12]


def fingerprint(club_id: int, start: dt.date | None, end: dt.date | None) -> Nights:
    """The range's evenings in two parts, settled and tonight's, fingerprinted (one query)."""
    return nights(club_id, start, end)


def evening_marks(club_id: int, start: dt.date | None, end: dt.date | None) -> list[EveningMark]:
    """The range's evenings in the club's order (one query)."""
    rows = club_evenings(club_id, start, end).order_by("date", "pk")
    fields = ("pk", "date", "created_at", "version", ADDED_DEAL)
    return [EveningMark(*row) for row in rows.values_list(*fields)]


def ordinal(date: dt.date, evening_id: int, game: int, number: int) -> int:
    """A deal's place in the club's history: by date, evening, game and deal number."""
    return ((date.toordinal() * 2**64 + evening_id) * 2**16 + game) * 2**24 + max(number, 0)


DEAL_FIELDS = (
    "pk",
    "game__evening_id",
    "game__number",
    "number",
    "passed",
    "paper",
    "taker_id",
    "partner_id",
    "contract",
    "bouts",
    "points",
    "petit_au_bout",
    "chelem",
)


def _deals(ids: Sequence[int]) -> models.QuerySet[Deal]:
    return Deal.objects.filter(game__kind=TAROT, game__evening_id__in=ids).values_list(*DEAL_FIELDS)


def _scores(ids: Sequence[int]) -> models.QuerySet[DealScore]:
    rows = DealScore.objects.filter(deal__game__kind=TAROT, deal__game__evening_id__in=ids)
    return rows.values_list("deal_id", "player_id", "seated", "score")


# One evening's deals and scores (tonight's, after each deal saved), compiled once, each row
# with the evening's version: two statements that saw the version named are that version's.
EVENING = 2_000_000_019  # the stand-in evening id they are compiled with
VERSION = "game__evening__version"
_one_evening_deals = Prepared(
    lambda evening: Deal.objects.filter(game__kind=TAROT, game__evening_id=evening).values_list(
        *DEAL_FIELDS, VERSION
    ),
    EVENING,
)
_one_evening_scores = Prepared(
    lambda evening: _scores([evening]).values_list(
        "deal_id", "player_id", "seated", "score", f"deal__{VERSION}"
    ),
    EVENING,
)
# One deal (the one just saved), with its game's kind and its evening's version.
DEAL = 2_000_000_023
_one_deal = Prepared(
    lambda deal: Deal.objects.filter(pk=deal).values_list(*DEAL_FIELDS, VERSION, "game__kind"),
    DEAL,
)
_one_deal_scores = Prepared(
    lambda deal: DealScore.objects.filter(deal_id=deal).values_list(
        "deal_id", "player_id", "seated", "score", f"deal__{VERSION}"
    ),
    DEAL,
)


def _facts_of(
    deals: Iterable[Sequence[Any]], score_rows: Iterable[Sequence[Any]], dates: dict[int, dt.date]
) -> dict[int, list[DealFacts]]:
    """The deals' facts by evening, from their rows (``DEAL_FIELDS``) and their scores' rows
    (deal, player, seated, score): the driver's numbers, text and truth values as they come."""
    scores: dict[int, dict[int, int]] = {}
    seated: dict[int, list[int]] = {}
    for deal_id, player_id, sits, score in score_rows:
        scores.setdefault(deal_id, {})[player_id] = score
        if sits:
            seated.setdefault(deal_id, []).append(player_id)
    found: dict[int, list[DealFacts]] = {evening_id: [] for evening_id in dates}
    for row in deals:
        (deal_id, evening_id, game, number, passed, paper, taker, partner) = row[:8]
        contract, bouts, points, petit, chelem = row[8:13]
        passed, paper = bool(passed), bool(paper)
        made = None
        if not passed and not paper and bouts in TARGETS and points is not None:
            made = points >= TARGETS[bouts]
        found[evening_id].append(
            DealFacts(
                deal_id=deal_id,
                evening_id=evening_id,
                ordinal=ordinal(dates[evening_id], evening_id, game, number),
                seated=tuple(sorted(seated.get(deal_id, ()))),
                scores=scores.get(deal_id, {}),
                taker=None if passed else taker,
                partner=None if passed else partner,
                made=made,
                contract=contract,
                bouts=bouts,
                petit_au_bout=petit,
                chelem=chelem,
                passed=passed,
                paper=paper,
            )
        )
    return found


def _in_order(facts: Iterable[DealFacts]) -> tuple[DealFacts, ...]:
    return tuple(sorted(facts, key=lambda d: (d.ordinal, d.deal_id)))


def _read(marks: Sequence[EveningMark]) -> dict[int, tuple[DealFacts, ...]]:
    """Two queries: these evenings' French Tarot deals, then their scores."""
    return _read_knowing(marks)[0]


def _read_knowing(marks: Sequence[EveningMark]) -> tuple[dict[int, tuple[DealFacts, ...]], bool]:
    """``_read``, and whether what it read is exactly at the versions the marks name (known
    for one evening, read with its version)."""
    if len(marks) == 1:
        facts, exact = _read_one(marks[0])
        return {marks[0].evening_id: facts}, exact
    ids = [mark.evening_id for mark in marks]
    found = _facts_of(_deals(ids), _scores(ids), {mark.evening_id: mark.date for mark in marks})
    return {evening_id: _in_order(facts) for evening_id, facts in found.items()}, False


def _read_one(mark: EveningMark) -> tuple[tuple[DealFacts, ...], bool]:
    """One evening's deals (two queries), and whether both saw the version ``mark`` names:
    then they are exactly that version's."""
    score_rows = _one_evening_scores.raw_tuples(mark.evening_id)
    deal_rows = _one_evening_deals.raw_tuples(mark.evening_id)
    versions = {row[-1] for row in score_rows} | {row[-1] for row in deal_rows}
    found = _facts_of(
        [row[:-1] for row in deal_rows],
        [row[:-1] for row in score_rows],
        {mark.evening_id: mark.date},
    )
    return _in_order(found[mark.evening_id]), versions == {mark.version}


def _exact_before(mark: EveningMark) -> tuple[DealFacts, ...] | None:
    """Tonight's deals of the version before ``mark``'s, known to be exactly that version's:
    this process's, else those another process shared."""
    key = _key(replace(mark, version=mark.version - 1))
    kept = _exact.get(key)
    if kept is None:
        name = _tonight_name(key)
        shared = shared_cache.shared_many([name]).get(name)
        if shared is not None and shared[1]:
            kept = shared[0]
    return kept


def _with_added_deal(mark: EveningMark) -> tuple[DealFacts, ...] | None:
    """Tonight's deals just after one was saved: the version before's deals, when known to be
    exactly that version's, and the deal saved (two queries, each seeing the version ``mark``
    names); None when that cannot be done (the evening is read whole)."""
    if mark.added_deal is None:
        return None
    before = _exact_before(mark)
    if before is None:
        return None
    rows = _one_deal.raw_tuples(mark.added_deal)
    if len(rows) != 1:
        return None  # gone since
    *deal_row, version, kind = rows[0]
    if deal_row[1] != mark.evening_id or version != mark.version:
        return None  # its evening changed since
    if kind != TAROT:  # a deal of L'escopette: the French Tarot deals are the version before's
        return before
    score_rows = _one_deal_scores.raw_tuples(mark.added_deal)
    if not score_rows or any(row[-1] != mark.version for row in score_rows):
        return None
    found = _facts_of([deal_row], [row[:-1] for row in score_rows], {mark.evening_id: mark.date})
    return _in_order([*before, *found[mark.evening_id]])


def _key(mark: EveningMark) -> str:
    evening_id, created, version = mark.content
    return f"facts.{database()}.{evening_id}.{created}.{version}"


def _tonight_name(key: str) -> str:
    """Where tonight's deals kept under ``key`` (``_key``) are shared, with whether they are
    exactly that version's: ``(facts, exact)``."""
    return f"facts.tonight.{key}"


def _keep(mark: EveningMark, facts: tuple[DealFacts, ...], exact: bool) -> None:
    key = _key(mark)
    _copies.set(key, facts)
    if exact:
        _exact.set(key, facts)


def _from_shared(
    marks: Sequence[EveningMark], share: bool, found: dict[int, tuple[DealFacts, ...]]
) -> list[EveningMark]:
    """Of ``marks``, those whose deals no process has put in the shared cache at their
    versions (one round trip); the others' go into ``found``, and are kept here. Tonight's
    (``share=False``) are also looked for where a read of the settled evenings with them put
    them (``_settled_state`` reads them together), not known to be exact there."""
    names = [_key(mark) for mark in marks]
    shared = shared_cache.shared_many(
        names if share else [*names, *(_tonight_name(name) for name in names)]
    )
    left = []
    for mark, name in zip(marks, names, strict=True):
        tonight = None if share else shared.get(_tonight_name(name))
        facts, exact = tonight if tonight is not None else (shared.get(name), False)
        if facts is None:
            left.append(mark)
            continue
        found[mark.evening_id] = facts
        _keep(mark, facts, exact)
    return left


def evening_facts(
    marks: Sequence[EveningMark], *, share: bool = True
) -> dict[int, tuple[DealFacts, ...]]:
    """Each evening's deals: from this process, else the shared cache, else the database.

    ``share=False`` is for tonight's evenings, whose version changes with every deal saved:
    their deals are shared for a few deals' time only (``shared_cache.TONIGHT_SECONDS``),
    with whether they are exactly their version's, so that the process that looks next adds
    a deal saved to them instead of reading the evening again.
    """
    found: dict[int, tuple[DealFacts, ...]] = {}
    unknown: list[EveningMark] = []
    for mark in marks:
        copy = _copies.get(_key(mark))
        if copy is None:
            unknown.append(mark)
        else:
            found[mark.evening_id] = copy
    if unknown:
        unknown = _from_shared(unknown, share, found)
    new: list[tuple[EveningMark, tuple[DealFacts, ...], bool]] = []
    if not share and len(unknown) == 1:  # tonight's one evening changed: perhaps by one deal
        # (several changed evenings are read together, cheaper than one at a time)
        copy = _with_added_deal(unknown[0])
        if copy is not None:
            new.append((unknown[0], copy, True))
            unknown = []
    for start in range(0, len(unknown), CHUNK):
        chunk = unknown[start : start + CHUNK]
        read, exact = _read_knowing(chunk)
        new.extend((mark, read[mark.evening_id], exact) for mark in chunk)
    for mark, facts, exact in new:
        found[mark.evening_id] = facts
        _keep(mark, facts, exact)
    if share:
        shared_cache.share_many({_key(mark): facts for mark, facts, _ in new}, FACTS_SECONDS)
    else:
        shared = {_tonight_name(_key(mark)): (facts, exact) for mark, facts, exact in new}
        shared_cache.share_many(shared, shared_cache.TONIGHT_SECONDS)
    return found
