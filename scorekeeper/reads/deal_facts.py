"""Stored French Tarot deals as the club figures read them, two queries per 500 evenings (or
their keys, then the deals not yet read: a query each); a deal's ``ordinal`` orders the club's
history by evening date and id, game, deal number."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, NamedTuple

from django.db.models import CharField, QuerySet
from django.db.models.functions import Cast

from scorekeeper.models import Deal, DealScore, Evening, Game
from scorekeeper.scoring.deal_facts import DealFacts
from scorekeeper.scoring.tarot import TARGETS

TAROT = Game.Kind.TAROT
CHUNK = 500  # evenings a query: within every database's parameter limit


class EveningMark(NamedTuple):
    """An evening as the figures see it: identity, date, creation time (as the database
    writes it: an evening made again under an old id is another evening) and version."""

    evening_id: int
    date: dt.date
    created: str
    version: int

    @property
    def content(self) -> tuple[int, str, int]:
        """What names the evening's deals: a new version, new deals."""
        return (self.evening_id, self.created, self.version)


# The reads' queries without their filters, made once from constants (they hold no data):
# each read filters a copy, and Django does not work their columns and joins out again.
# Only ever filter them: iterated themselves, they would keep their rows in the process.
_MARKS = Evening.objects.order_by("date", "pk")
_MARKS = _MARKS.values_list("pk", "date", Cast("created_at", CharField()), "version")


def evening_marks(club_id: int, start: dt.date | None, end: dt.date | None) -> list[EveningMark]:
    """The range's evenings (from start to end, either open) in the club's order (one query,
    built with one filter; the creation time as text)."""
    bounds = {"date__gte": start, "date__lte": end}
    rows = _MARKS.filter(club_id=club_id, **{k: v for k, v in bounds.items() if v})
    return list(map(EveningMark._make, rows))


def ordinal(date: dt.date, evening_id: int, game: int, number: int) -> int:
    """A deal's place in the club's history: by date, evening, game and deal number."""
    return ((date.toordinal() * 2**64 + evening_id) * 2**16 + game) * 2**24 + max(number, 0)


#: What a deal's row shows of it, read again: unchanged while the deal is (every write to its
#: scores sets ``updated_at``, read as text: services.deals, services.house_rules).
DEAL_KEY = (
    "pk",
    "game__evening_id",
    "game__number",
    "number",
    Cast("updated_at", CharField()),
    "game__tournament_table__round__tournament_id",
)
DEAL_INPUTS = ("passed", "paper", "taker_id", "partner_id", "contract", "bouts", "points")
DEAL_INPUTS += ("petit_au_bout", "chelem")
SCORES = ("player_id", "seated", "score")

#: A deal's ordinal and key (``DEAL_KEY``).
DealKey = tuple[int, tuple[Any, ...]]
#: A deal as read: its ordinal and key, its inputs (``DEAL_INPUTS``) and its scores' rows
#: (player, seated, score) by player.
DealRow = tuple[int, tuple[Any, ...], tuple[Any, ...], tuple[tuple[int, bool, int], ...]]


# Unordered (the deals are sorted after): Deal's default order joins the evenings.
_DEALS = Deal.objects.filter(game__kind=TAROT).order_by()
_KEYS, _ROWS = _DEALS.values_list(*DEAL_KEY), _DEALS.values_list(*DEAL_KEY, *DEAL_INPUTS)
_NEW = Deal.objects.order_by().values_list("pk", *DEAL_INPUTS, *(f"scores__{f}" for f in SCORES))
_SCORES = DealScore.objects.filter(deal__game__kind=TAROT).order_by("deal_id", "player_id")
_SCORES = _SCORES.values_list("deal_id", *SCORES)


def deal_keys(marks: Sequence[EveningMark], deals: QuerySet[Any, Any] = _KEYS) -> list[DealKey]:
    """The evenings' deals' keys (or ``deals``' fields) after their ordinals, in the club's
    order: one query per 500 evenings."""
    found = []
    for start in range(0, len(marks), CHUNK):
        dates = {mark.evening_id: mark.date for mark in marks[start : start + CHUNK]}
        for row in deals.filter(game__evening_id__in=dates):
            found.append((ordinal(dates[row[1]], row[1], row[2], row[3]), row))
    found.sort(key=lambda deal: (deal[0], deal[1][0]))
    return found


def deal_rows(marks: Sequence[EveningMark]) -> list[DealRow]:
    """The evenings' deals as read, in the club's order: two queries per 500 evenings."""
    scores: dict[int, list[tuple[int, bool, int]]] = {}
    for start in range(0, len(marks), CHUNK):
        ids = [mark.evening_id for mark in marks[start : start + CHUNK]]
        for deal_id, *score in _SCORES.filter(deal__game__evening_id__in=ids):
            scores.setdefault(deal_id, []).append(tuple(score))  # type: ignore[arg-type]
    return [
        (place, row[:6], row[6:], tuple(scores.get(row[0], ())))
        for place, row in deal_keys(marks, _ROWS)
    ]


def new_rows(keys: Sequence[DealKey]) -> list[DealRow]:
    """These deals as read, their keys read just before: one query per 5,000 deals."""
    inputs: dict[int, tuple[Any, ...]] = {}
    scores: dict[int, list[tuple[int, bool, int]]] = {}
    width = len(DEAL_INPUTS)
    ids = [key[0] for _, key in keys]
    for start in range(0, len(ids), 10 * CHUNK):
        for deal_id, *row in _NEW.filter(pk__in=ids[start : start + 10 * CHUNK]):
            inputs[deal_id] = tuple(row[:width])
            if row[width] is not None:  # a deal without scores comes once, with nulls
                scores.setdefault(deal_id, []).append(tuple(row[width:]))  # type: ignore[arg-type]
    return [
        (place, key, inputs[key[0]], tuple(sorted(scores.get(key[0], ()))))
        for place, key in keys
        if key[0] in inputs
    ]


def deal_facts(row: DealRow) -> DealFacts:
    """A deal's facts from its row: the driver's numbers, text and truth values as they come."""
    place, (deal_id, evening_id, _, _, _, tournament), inputs, score_rows = row
    passed, paper, taker, partner, contract, bouts, points, petit, chelem = inputs
    passed, paper = bool(passed), bool(paper)
    made = None
    if not passed and not paper and bouts in TARGETS and points is not None:
        made = points >= TARGETS[bouts]
    return DealFacts(
        deal_id=deal_id,
        evening_id=evening_id,
        ordinal=place,
        seated=tuple(player for player, sits, _ in score_rows if sits),
        scores={player: score for player, _, score in score_rows},
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


def evening_facts(marks: Sequence[EveningMark]) -> dict[int, list[DealFacts]]:
    """Each evening's deals in order (``deal_rows``)."""
    found: dict[int, list[DealFacts]] = {mark.evening_id: [] for mark in marks}
    for row in deal_rows(marks):
        found[row[1][1]].append(deal_facts(row))
    return found
