"""What a club argues about, deal by deal: point flow, partners, contracts, evening points.

Point flow: every player who lost pays each winner a part of his loss proportional to that
winner's gain; the flows add up exactly (fractions) to each player's score.

Evening points: players are placed by their evening total; tied players share their
places' points (a two-way tie for 1st on 10, 6, 4 gives 8 each); places past the scale get 0.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from math import lcm

from scorekeeper.scoring.deal_facts import DealFacts, in_order
from scorekeeper.scoring.errors import ScoringError

Player = Hashable
Pair = tuple[Player, Player]
MIN_TAKES = 5
SCALE_MAX = 20


# Point flow --------------------------------------------------------------------------------


def _payments(scores: Mapping[Player, int]) -> tuple[int, list[tuple[Pair, int]]] | None:
    """One deal's payments as (won, [((payer, payee), loss x gain)]): each is that whole
    number divided by ``won``, the winners' total; None if the scores are not zero-sum."""
    winners = [(player, score) for player, score in scores.items() if score > 0]
    losers = [(player, -score) for player, score in scores.items() if score < 0]
    won = sum(gain for _, gain in winners)
    if won != sum(loss for _, loss in losers):
        return None
    return won, [((payer, payee), loss * gain) for payer, loss in losers for payee, gain in winners]


@dataclass(frozen=True)
class PointFlow:
    """Points paid from one player to another over some deals (gross, each way)."""

    paid: dict[Pair, Fraction]
    deals: int
    unbalanced: tuple[int, ...] = ()

    def net(self, player: Player, other: Player) -> Fraction:
        """What player got from other, less what he paid other (negative: he lost to other)."""
        return self.paid.get((other, player), Fraction(0)) - self.paid.get(
            (player, other), Fraction(0)
        )


def point_flow(deals: Iterable[DealFacts]) -> PointFlow:
    """The flow over these deals (deals not summing to zero left out, by id): the sums of each
    deal's :func:`deal_flow`, added as whole numbers and made fractions once at the end."""
    numerators: dict[tuple[Pair, int], int] = defaultdict(int)
    counted = 0
    unbalanced = []
    for deal in in_order(deals):
        if deal.passed:
            continue
        payments = _payments(deal.scores)
        if payments is None:
            unbalanced.append(deal.deal_id)
            continue
        counted += 1
        won, parts = payments
        for pair, numerator in parts:
            numerators[pair, won] += numerator
    by_pair: dict[Pair, list[tuple[int, int]]] = defaultdict(list)
    for (pair, won), numerator in numerators.items():
        by_pair[pair].append((numerator, won))
    paid = {}
    for pair, parts in by_pair.items():
        common = lcm(*(won for _, won in parts))
        paid[pair] = Fraction(sum(numerator * (common // won) for numerator, won in parts), common)
    return PointFlow(paid=paid, deals=counted, unbalanced=tuple(unbalanced))


# Partners at 5 -----------------------------------------------------------------------------


@dataclass
class Partnership:
    """A taker's deals with one called partner: how many, how many made, the points won."""

    taker: Player
    partner: Player
    deals: int = 0
    made: int = 0
    taker_points: int = 0
    partner_points: int = 0


def partnership_order(row: Partnership) -> tuple[int, int, str, str]:
    """The most deals first, then the taker's points, then the names (ties never depend on
    the order the deals were added in)."""
    return (-row.deals, -row.taker_points, str(row.taker), str(row.partner))


def partnerships(
    deals: Iterable[DealFacts], table: dict[Pair, Partnership] | None = None
) -> list[Partnership]:
    """Every (taker, called partner) pair, in :func:`partnership_order` (the deals added to
    ``table``'s rows, if given)."""
    table = {} if table is None else table
    for deal in in_order(deals):
        partner = deal.called_partner
        if not deal.played or partner is None:
            continue
        row = table.setdefault((deal.taker, partner), Partnership(deal.taker, partner))
        row.deals += 1
        row.made += bool(deal.made)
        row.taker_points += deal.scores.get(deal.taker, 0)
        row.partner_points += deal.scores.get(partner, 0)
    return sorted(table.values(), key=partnership_order)


# Contract x player -------------------------------------------------------------------------


@dataclass
class ContractCell:
    """One player's takes at one contract (or at all): made, and by bouts (0 to 3)."""

    takes: int = 0
    made: int = 0
    by_bouts: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    min_takes: int = MIN_TAKES

    @property
    def rate(self) -> float | None:
        """The share made, or None below min_takes takes (1 of 1 is not 100 %)."""
        return self.made / self.takes if self.takes >= max(self.min_takes, 1) else None


@dataclass
class PlayerContracts:
    """How often a player takes, at which contract, with which bouts, and how it ends."""

    player: Player
    seated: int = 0
    all: ContractCell = field(default_factory=ContractCell)
    by_contract: dict[str, ContractCell] = field(default_factory=dict)

    @property
    def take_share(self) -> float | None:
        """Takes per deal seated (passed deals included), None before any deal."""
        return self.all.takes / self.seated if self.seated else None


def contract_table(
    deals: Iterable[DealFacts],
    *,
    min_takes: int = MIN_TAKES,
    table: dict[Player, PlayerContracts] | None = None,
) -> dict[Player, PlayerContracts]:
    """Per player: deals seated and takes by contract (paper deals do not tell: left out),
    added to ``table``'s rows if given."""
    table = {} if table is None else table

    def row(player: Player) -> PlayerContracts:
        if player not in table:
            table[player] = PlayerContracts(player, all=ContractCell(min_takes=min_takes))
        return table[player]

    for deal in in_order(deals):
        if deal.paper:
            continue
        for player in deal.seated:
            row(player).seated += 1
        if not deal.played:
            continue
        taker = row(deal.taker)
        cell = taker.by_contract.setdefault(deal.contract, ContractCell(min_takes=min_takes))
        for counted in (taker.all, cell):
            counted.takes += 1
            counted.made += bool(deal.made)
            if deal.bouts is not None and 0 <= deal.bouts <= 3:
                counted.by_bouts[deal.bouts] += 1
    return table


# Evenings ----------------------------------------------------------------------------------


def check_scale(scale: object) -> tuple[int, ...]:
    """A points scale: 1 to 20 whole numbers >= 0, never rising (10, 6, 4, 2, 1)."""
    if not isinstance(scale, Sequence) or isinstance(scale, str):
        raise ScoringError.coded(
            "scale", "not_scale", "%(value)s is not a list of points by place", value=scale
        )
    values = tuple(scale)
    if not 1 <= len(values) <= SCALE_MAX:
        raise ScoringError.coded(
            "scale", "scale_length", "give the points of 1 to %(limit)s places", limit=SCALE_MAX
        )
    if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values):
        raise ScoringError.coded(
            "scale", "scale_whole", "each place's points are a whole number, 0 or more"
        )
    if any(later > earlier for earlier, later in pairwise(values)):
        raise ScoringError.coded(
            "scale", "scale_rising", "a place cannot give more points than the one before"
        )
    return values


def evening_places(totals: Mapping[Player, int], scale: Sequence[int]) -> dict[Player, Fraction]:
    """One evening's points per player: tied players share the average of their places."""
    ranked = sorted(totals.items(), key=lambda item: -item[1])
    points: dict[Player, Fraction] = {}
    place = 0
    while place < len(ranked):
        end = place
        while end + 1 < len(ranked) and ranked[end + 1][1] == ranked[place][1]:
            end += 1
        shared = sum(scale[i] if i < len(scale) else 0 for i in range(place, end + 1))
        for player, _ in ranked[place : end + 1]:
            points[player] = Fraction(shared, end - place + 1)
        place = end + 1
    return points
