"""Stored French Tarot deals as the club figures read them, two queries per 500 evenings; a
deal's ``ordinal`` orders the club's history by evening date and id, game, deal number."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, NamedTuple

from django.db.models import CharField
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


def evening_marks(club_id: int, start: dt.date | None, end: dt.date | None) -> list[EveningMark]:
    """The range's evenings (from start to end, either open) in the club's order (one query,
    built with one filter; the creation time as text)."""
    bounds = {"date__gte": start, "date__lte": end}
    rows = Evening.objects.filter(club_id=club_id, **{k: v for k, v in bounds.items() if v})
    fields = ("pk", "date", Cast("created_at", CharField()), "version")
    return [EveningMark._make(row) for row in rows.order_by("date", "pk").values_list(*fields)]


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
    # As text: every write to a deal's scores sets it (services.deals, services.house_rules).
    Cast("updated_at", CharField()),
)


#: A deal as read: its ordinal and id, its fields (``DEAL_FIELDS``) and its scores' rows
#: (player, seated, score) by player; rows read again compare equal when the deal is unchanged.
DealRow = tuple[int, int, tuple[Any, ...], tuple[tuple[int, bool, int], ...]]


def deal_rows(marks: Sequence[EveningMark], known: Sequence[DealRow] = ()) -> list[DealRow]:
    """The evenings' deals as read, in the club's order: two queries per 500 evenings; a deal
    ``known`` as read then (same fields: same update time) keeps its scores, not read again."""
    found: list[DealRow] = []
    kept = {row[1]: row for row in known}
    for start in range(0, len(marks), CHUNK):
        dates = {mark.evening_id: mark.date for mark in marks[start : start + CHUNK]}
        # Unordered (the deals are sorted below): Deal's default order joins the evenings.
        deals = Deal.objects.filter(game__kind=TAROT, game__evening_id__in=dates).order_by()
        rows = list(deals.values_list(*DEAL_FIELDS))
        same = {row[0]: kept[row[0]][3] for row in rows if kept.get(row[0], (0, 0, ()))[2] == row}
        every = {"deal__game__kind": TAROT, "deal__game__evening_id__in": dates}
        others = {"deal_id__in": [row[0] for row in rows if row[0] not in same]}
        scores = DealScore.objects.filter(**(others if same else every))
        held: dict[int, list[tuple[int, bool, int]]] = {}
        fields = ("deal_id", "player_id", "seated", "score")
        for deal_id, *score in scores.order_by("deal_id", "player_id").values_list(*fields):
            held.setdefault(deal_id, []).append(tuple(score))  # type: ignore[arg-type]
        for row in rows:
            place = ordinal(dates[row[1]], row[1], row[2], row[3])
            found.append((place, row[0], row, same.get(row[0]) or tuple(held.get(row[0], ()))))
    found.sort(key=lambda row: row[:2])
    return found


def deal_facts(row: DealRow) -> DealFacts:
    """A deal's facts from its row: the driver's numbers, text and truth values as they come."""
    place, deal_id, fields, score_rows = row
    (_, evening_id, _, _, passed, paper, taker, partner) = fields[:8]
    contract, bouts, points, petit, chelem, tournament = fields[8:14]
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
        found[row[2][1]].append(deal_facts(row))
    return found
