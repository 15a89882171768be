"""Records and streaks of a club's deals, each pointing at its deal or evening (pure). Ties
keep the earliest. Paper deals count in the biggest deals and evenings; a streak is a run of
made takes; chelems and petits au bout count for every player of the side that made them.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

from scorekeeper.scoring.deal_facts import DealFacts, in_order

Player = Hashable
ATTACK_CHELEMS = frozenset({"announced", "unannounced"})
DEFENCE_CHELEM = "defense"


@dataclass(frozen=True)
class DealRecord:
    """A player's score in one deal."""

    player: Player
    score: int
    deal_id: int
    evening_id: int


@dataclass(frozen=True)
class EveningRecord:
    """A player's total over one night: an evening, or a tournament's tables added up (its
    ``evening_id`` is then its first table's)."""

    player: Player
    total: int
    evening_id: int


@dataclass(frozen=True)
class Streak:
    """A run of made contracts: its length and its first and last deal."""

    player: Player
    length: int
    first_deal_id: int
    last_deal_id: int
    last_evening_id: int = 0


@dataclass(frozen=True)
class Tally:
    """How many times a player was on the side that made a feat, and in which deals."""

    player: Player
    count: int
    deal_ids: tuple[int, ...]


@dataclass(frozen=True)
class ClubRecords:
    """Every record over the deals given (None or empty when no deal shows one)."""

    biggest_win: DealRecord | None
    biggest_loss: DealRecord | None
    best_evening: EveningRecord | None
    worst_evening: EveningRecord | None
    streaks: dict[Player, Streak] = field(default_factory=dict)
    chelems: list[Tally] = field(default_factory=list)
    petits_au_bout: list[Tally] = field(default_factory=list)


def deal_records(deals: list[DealFacts]) -> tuple[DealRecord | None, DealRecord | None]:
    best: DealRecord | None = None
    worst: DealRecord | None = None
    for deal in deals:
        for player, score in deal.scores.items():
            record = DealRecord(player, score, deal.deal_id, deal.evening_id)
            if score > 0 and (best is None or score > best.score):
                best = record
            if score < 0 and (worst is None or score < worst.score):
                worst = record
    return best, worst


def evening_bests(
    evenings: dict[int, dict[Player, int]],
) -> tuple[EveningRecord | None, EveningRecord | None]:
    """The best and worst of these evenings' totals (in the order given; ties keep the first)."""
    best: EveningRecord | None = None
    worst: EveningRecord | None = None
    for evening, totals in evenings.items():
        for player, total in totals.items():
            record = EveningRecord(player, total, evening)
            if total > 0 and (best is None or total > best.total):
                best = record
            if total < 0 and (worst is None or total < worst.total):
                worst = record
    return best, worst


def made_streaks(
    deals: Iterable[DealFacts],
    *,
    current: dict[Player, Streak] | None = None,
    longest: dict[Player, Streak] | None = None,
) -> dict[Player, Streak]:
    """Each taker's longest run of made contracts (players who never made one are absent).

    ``current`` and ``longest`` carry the runs over from earlier deals; both are updated.
    """
    current = {} if current is None else current
    longest = {} if longest is None else longest
    for deal in in_order(deals):
        if not deal.played:
            continue
        taker = deal.taker
        if not deal.made:
            current.pop(taker, None)
            continue
        run = current.get(taker)
        run = (
            Streak(taker, run.length + 1, run.first_deal_id, deal.deal_id, deal.evening_id)
            if run
            else Streak(taker, 1, deal.deal_id, deal.deal_id, deal.evening_id)
        )
        current[taker] = run
        if taker not in longest or run.length > longest[taker].length:
            longest[taker] = run
    return longest


def tallies(found: dict[Player, array[int]]) -> list[Tally]:
    rows = [Tally(player, len(ids), tuple(ids)) for player, ids in found.items()]
    return sorted(rows, key=lambda row: (-row.count, row.deal_ids[-1], str(row.player)))


def feat_deals(
    deals: Iterable[DealFacts], chelems: dict[Player, array[int]], petits: dict[Player, array[int]]
) -> None:
    """Add each player's chelems and petits au bout (deal ids, in flat arrays) over these deals."""
    for deal in in_order(deals):
        if not deal.played:
            continue
        sides = {"attack": deal.attack, "defense": deal.defenders}
        chelem_side = ()
        if deal.chelem in ATTACK_CHELEMS:
            chelem_side = deal.attack
        elif deal.chelem == DEFENCE_CHELEM:
            chelem_side = deal.defenders
        for player in chelem_side:
            chelems.setdefault(player, array("q")).append(deal.deal_id)
        for player in sides.get(deal.petit_au_bout, ()):
            petits.setdefault(player, array("q")).append(deal.deal_id)
