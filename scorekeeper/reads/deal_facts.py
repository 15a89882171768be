"""Stored French Tarot deals as the club figures read them (``scoring.deal_facts.DealFacts``).

One evening's deals are read in two queries (its deals, then their scores) for any number of
evenings at once (500 a query), and kept in the shared cache and in this process under the
evening's identity and ``version``, which every change to its deals bumps: a saved deal
makes only its own evening read again. L'escopette games are not read at all.

A deal's ``ordinal`` is its place in the club's history, the same whatever range is read:
by the evening's date and id, the game's number and the deal's number.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import connections, models

from scorekeeper.models import Deal, DealScore, Game
from scorekeeper.reads.nights import Nights, club_evenings, nights
from scorekeeper.scoring.deal_facts import DealFacts
from scorekeeper.scoring.tarot import TARGETS
from scorekeeper.server import shared_cache
from scorekeeper.server.prepared import Prepared

TAROT = Game.Kind.TAROT
CHUNK = 500  # evenings a query: within every database's parameter limit
FACTS_SECONDS = 7 * 86400

_copies = shared_cache.LocalMemo(4000)


@dataclass(frozen=True)
class EveningMark:
    """An evening as the figures see it: identity, version and date."""

    evening_id: int
    date: dt.date
    created_at: dt.datetime
    version: int

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
    return [EveningMark(*row) for row in rows.values_list("pk", "date", "created_at", "version")]


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


# One evening's deals and scores (tonight's, after each deal saved), compiled once.
EVENING = 2_000_000_019  # the stand-in evening id they are compiled with
_one_evening_deals = Prepared(lambda evening: _deals([evening]), EVENING)
_one_evening_scores = Prepared(lambda evening: _scores([evening]), EVENING)


def _read(marks: Sequence[EveningMark]) -> dict[int, tuple[DealFacts, ...]]:
    """Two queries: these evenings' French Tarot deals, then their scores."""
    ids = [mark.evening_id for mark in marks]
    dates = {mark.evening_id: mark.date for mark in marks}
    if len(ids) == 1:  # numbers, text and truth values: the driver's rows as they come
        score_rows: Iterable[tuple[Any, ...]] = _one_evening_scores.raw_tuples(ids[0])
        deals: Iterable[tuple[Any, ...]] = _one_evening_deals.raw_tuples(ids[0])
    else:
        score_rows, deals = _scores(ids), _deals(ids)
    scores: dict[int, dict[int, int]] = {}
    seated: dict[int, list[int]] = {}
    for deal_id, player_id, sits, score in score_rows:
        scores.setdefault(deal_id, {})[player_id] = score
        if sits:
            seated.setdefault(deal_id, []).append(player_id)
    found: dict[int, list[DealFacts]] = {evening_id: [] for evening_id in ids}
    for row in deals:
        (deal_id, evening_id, game, number, passed, paper, taker, partner) = row[:8]
        contract, bouts, points, petit, chelem = row[8:]
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
    return {
        evening_id: tuple(sorted(facts, key=lambda d: (d.ordinal, d.deal_id)))
        for evening_id, facts in found.items()
    }


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
            read = _read(chunk)
            if share:
                cache.set_many({_key(mark): read[mark.evening_id] for mark in chunk}, FACTS_SECONDS)
            for mark in chunk:
                found[mark.evening_id] = read[mark.evening_id]
                _copies.set(_key(mark), read[mark.evening_id])
    return found
