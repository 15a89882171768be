"""Stored French Tarot deals as the club figures read them (``scoring.deal_facts.DealFacts``).

One evening's deals are read in two queries (its deals, then their scores) for any number of
evenings at once (500 a query), and kept in the shared cache and in this process under the
evening's identity and ``version``, which every change to its deals bumps: a saved deal
makes only its own evening read again, and not even that when the version names the deal as
its only change (``Evening.added_deal``) and this process holds the version before's deals,
read exactly at that version: the saved deal's row and scores are added to them.
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

from django.core.cache import cache
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


def _with_added_deal(mark: EveningMark) -> tuple[DealFacts, ...] | None:
    """Tonight's deals just after one was saved: this process's deals of the version before,
    when known to be exactly that version's, and the deal saved (two queries, each seeing the
    version ``mark`` names); None when that cannot be done (the evening is read whole)."""
    if mark.added_deal is None:
        return None
    before = _exact.get(_key(replace(mark, version=mark.version - 1)))
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


def evening_facts(
    marks: Sequence[EveningMark], *, share: bool = True
) -> dict[int, tuple[DealFacts, ...]]:
    """Each evening's deals: from this process, else the shared cache, else the database.

    ``share=False`` keeps what the database gave in this process only: tonight's evening,
    whose version changes with every deal saved, is not worth a write to the shared cache.
    """
    found: dict[int, tuple[DealFacts, ...]] = {}
    unknown: list[EveningMark] = []
    for mark in marks:
        copy = _copies.get(_key(mark))
        if copy is None:
            unknown.append(mark)
        else:
            found[mark.evening_id] = copy
    if not share and len(unknown) == 1:  # tonight's one evening changed: perhaps by one deal
        # (several changed evenings are read together, cheaper than one at a time)
        copy = _with_added_deal(unknown[0])
        if copy is not None:
            _copies.set(_key(unknown[0]), copy)
            _exact.set(_key(unknown[0]), copy)
            found[unknown[0].evening_id] = copy
            unknown = []
    if unknown:
        shared = cache.get_many([_key(mark) for mark in unknown])
        missing = []
        for mark in unknown:
            facts = shared.get(_key(mark))
            if facts is None:
                missing.append(mark)
            else:
                found[mark.evening_id] = facts
                _copies.set(_key(mark), facts)
        for start in range(0, len(missing), CHUNK):
            chunk = missing[start : start + CHUNK]
            read, exact = _read_knowing(chunk)
            if share:
                cache.set_many({_key(mark): read[mark.evening_id] for mark in chunk}, FACTS_SECONDS)
            for mark in chunk:
                found[mark.evening_id] = read[mark.evening_id]
                _copies.set(_key(mark), read[mark.evening_id])
                if exact:
                    _exact.set(_key(mark), read[mark.evening_id])
    return found
