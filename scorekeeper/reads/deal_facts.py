"""Stored French Tarot deals as the club figures read them, two queries per 500 evenings; a
deal's ``ordinal`` orders the club's history by evening date and id, game, deal number."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from scorekeeper.models import Deal, DealScore, Evening, Game
from scorekeeper.scoring.deal_facts import DealFacts
from scorekeeper.scoring.tarot import TARGETS

TAROT = Game.Kind.TAROT
CHUNK = 500  # evenings a query: within every database's parameter limit


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


def club_evenings(club_id: int, start: dt.date | None, end: dt.date | None) -> QuerySet[Evening]:
    """The club's evenings from start to end (either open), as a queryset."""
    evenings = Evening.objects.filter(club_id=club_id)
    if start is not None:
        evenings = evenings.filter(date__gte=start)
    if end is not None:
        evenings = evenings.filter(date__lte=end)
    return evenings


def evening_marks(club_id: int, start: dt.date | None, end: dt.date | None) -> list[EveningMark]:
    """The range's evenings in the club's order (one query)."""
    rows = club_evenings(club_id, start, end).order_by("date", "pk")
    fields = ("pk", "date", "created_at", "version")
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
    "game__tournament_table__round__tournament_id",
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
        contract, bouts, points, petit, chelem, tournament = row[8:14]
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
                night=tournament or 0,
            )
        )
    return found


def evening_facts(marks: Sequence[EveningMark]) -> dict[int, tuple[DealFacts, ...]]:
    """Each evening's deals in order: two queries per 500 evenings (none without one)."""
    found: dict[int, tuple[DealFacts, ...]] = {}
    for start in range(0, len(marks), CHUNK):
        chunk = marks[start : start + CHUNK]
        ids = [mark.evening_id for mark in chunk]
        # Unordered (the deals are sorted below): Deal's default order joins the evenings.
        deals = Deal.objects.filter(game__kind=TAROT, game__evening_id__in=ids).order_by()
        scores = DealScore.objects.filter(deal__game__kind=TAROT, deal__game__evening_id__in=ids)
        read = _facts_of(
            deals.values_list(*DEAL_FIELDS),
            scores.values_list("deal_id", "player_id", "seated", "score"),
            {mark.evening_id: mark.date for mark in chunk},
        )
        for evening_id, facts in read.items():
            found[evening_id] = tuple(sorted(facts, key=lambda d: (d.ordinal, d.deal_id)))
    return found
