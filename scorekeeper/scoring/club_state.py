"""Every club figure over some deals, as one state that later evenings extend (pure).

The read side keeps a :class:`FiguresState` for the evenings that no longer change and, when
a deal of tonight's evening is saved, copies it and advances the copy with tonight's deals:
a few dozen deals instead of the season's thousands. Only a change to an older evening makes
it start again from the first deal (:func:`figures_state`).

Deals come in the club's order; an evening may be split across calls (tonight's deals, saved
one by one): the evenings of the last call stay open, their totals kept, and count in the
best and worst evening once a later call moves on. The figures equal those of
``club_figures``, ``club_records`` and ``ratings`` over the same deals (the tests say so).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from scorekeeper.scoring.club_figures import (
    MIN_TAKES,
    ContractCell,
    Partnership,
    PlayerContracts,
    PointFlow,
    contract_table,
    partnerships,
    point_flow,
)
from scorekeeper.scoring.club_records import (
    ClubRecords,
    DealRecord,
    EveningRecord,
    Streak,
    deal_records,
    feat_deals,
    made_streaks,
    tallies,
)
from scorekeeper.scoring.deal_facts import DealFacts, in_order
from scorekeeper.scoring.ratings import RatingState

Player = Hashable
Pair = tuple[Player, Player]


def _higher(old: DealRecord | None, new: DealRecord | None, sign: int) -> DealRecord | None:
    """The record that stands: a later one only when it beats the earlier (ties keep it)."""
    if new is None:
        return old
    if old is None or sign * new.score > sign * old.score:
        return new
    return old


def _higher_evening(
    old: EveningRecord | None, new: EveningRecord | None, sign: int
) -> EveningRecord | None:
    if new is None:
        return old
    if old is None or sign * new.total > sign * old.total:
        return new
    return old


def _evening_bests(
    evenings: dict[int, dict[Player, int]],
) -> tuple[EveningRecord | None, EveningRecord | None]:
    """The best and worst of these evenings' totals (in the order given; ties keep the first)."""
    best: EveningRecord | None = None
    worst: EveningRecord | None = None
    for evening_id, totals in evenings.items():
        for player, total in totals.items():
            record = EveningRecord(player, total, evening_id)
            if total > 0 and (best is None or total > best.total):
                best = record
            if total < 0 and (worst is None or total < worst.total):
                worst = record
    return best, worst


def _copy_cell(cell: ContractCell) -> ContractCell:
    return replace(cell, by_bouts=list(cell.by_bouts))


def _add_cell(total: ContractCell, more: ContractCell) -> None:
    total.takes += more.takes
    total.made += more.made
    total.by_bouts = [a + b for a, b in zip(total.by_bouts, more.by_bouts, strict=True)]


@dataclass
class FiguresState:
    """The ratings, point flow, partnerships, contract table and records after some deals."""

    min_takes: int = MIN_TAKES
    ratings: RatingState = field(default_factory=RatingState)
    paid: dict[Pair, Fraction] = field(default_factory=dict)
    flow_deals: int = 0
    unbalanced: list[int] = field(default_factory=list)
    partners: dict[Pair, Partnership] = field(default_factory=dict)
    contracts: dict[Player, PlayerContracts] = field(default_factory=dict)
    biggest_win: DealRecord | None = None
    biggest_loss: DealRecord | None = None
    best_evening: EveningRecord | None = None
    worst_evening: EveningRecord | None = None
    current_runs: dict[Player, Streak] = field(default_factory=dict)
    longest_runs: dict[Player, Streak] = field(default_factory=dict)
    chelems: dict[Player, list[int]] = field(default_factory=dict)
    petits: dict[Player, list[int]] = field(default_factory=dict)
    feat_evenings: dict[int, int] = field(default_factory=dict)  # deal id -> its evening
    open_evenings: dict[int, dict[Player, int]] = field(default_factory=dict)  # totals so far
    deals: int = 0

    def copy(self) -> FiguresState:
        """An independent state with the same figures."""
        return replace(
            self,
            ratings=self.ratings.copy(),
            paid=dict(self.paid),
            unbalanced=list(self.unbalanced),
            partners={key: replace(row) for key, row in self.partners.items()},
            contracts={
                player: replace(
                    row,
                    all=_copy_cell(row.all),
                    by_contract={k: _copy_cell(c) for k, c in row.by_contract.items()},
                )
                for player, row in self.contracts.items()
            },
            current_runs=dict(self.current_runs),
            longest_runs=dict(self.longest_runs),
            chelems={player: list(ids) for player, ids in self.chelems.items()},
            petits={player: list(ids) for player, ids in self.petits.items()},
            feat_evenings=dict(self.feat_evenings),
            open_evenings={key: dict(totals) for key, totals in self.open_evenings.items()},
        )

    def advance(self, deals: Iterable[DealFacts]) -> FiguresState:
        """Add whole evenings of deals that come after every deal already in the state."""
        batch = in_order(deals)
        if not batch:
            return self
        self.ratings.advance(batch)
        self.deals += len(batch)
        flow = point_flow(batch)
        for pair, points in flow.paid.items():
            self.paid[pair] = self.paid.get(pair, Fraction(0)) + points
        self.flow_deals += flow.deals
        self.unbalanced.extend(flow.unbalanced)
        for row in partnerships(batch):
            key = (row.taker, row.partner)
            total = self.partners.get(key)
            if total is None:
                self.partners[key] = row
                continue
            total.deals += row.deals
            total.made += row.made
            total.taker_points += row.taker_points
            total.partner_points += row.partner_points
        for player, row in contract_table(batch, min_takes=self.min_takes).items():
            total = self.contracts.get(player)
            if total is None:
                self.contracts[player] = row
                continue
            total.seated += row.seated
            _add_cell(total.all, row.all)
            for contract, cell in row.by_contract.items():
                if contract in total.by_contract:
                    _add_cell(total.by_contract[contract], cell)
                else:
                    total.by_contract[contract] = cell
        win, loss = deal_records(batch)
        self.biggest_win = _higher(self.biggest_win, win, 1)
        self.biggest_loss = _higher(self.biggest_loss, loss, -1)
        self._evenings(batch)
        made_streaks(batch, current=self.current_runs, longest=self.longest_runs)
        feat_deals(batch, self.chelems, self.petits)
        for deal in batch:
            if deal.chelem or deal.petit_au_bout:
                self.feat_evenings[deal.deal_id] = deal.evening_id
        return self

    def _evenings(self, batch: list[DealFacts]) -> None:
        """Close the open evenings this batch does not continue; add up the batch's."""
        continued = {deal.evening_id for deal in batch}
        for evening_id in [key for key in self.open_evenings if key not in continued]:
            best, worst = _evening_bests({evening_id: self.open_evenings.pop(evening_id)})
            self.best_evening = _higher_evening(self.best_evening, best, 1)
            self.worst_evening = _higher_evening(self.worst_evening, worst, -1)
        for deal in batch:
            totals = self.open_evenings.setdefault(deal.evening_id, {})
            for player, score in deal.scores.items():
                totals[player] = totals.get(player, 0) + score

    def evening_bests(self) -> tuple[EveningRecord | None, EveningRecord | None]:
        """The best and worst evening, the open ones counted."""
        best, worst = _evening_bests(self.open_evenings)
        return (
            _higher_evening(self.best_evening, best, 1),
            _higher_evening(self.worst_evening, worst, -1),
        )

    def point_flow(self) -> PointFlow:
        return PointFlow(
            paid=dict(self.paid), deals=self.flow_deals, unbalanced=tuple(self.unbalanced)
        )

    def partnerships(self) -> list[Partnership]:
        """As ``club_figures.partnerships``: the most deals first, then the taker's points."""
        rows = self.partners.values()
        return sorted(rows, key=lambda row: (-row.deals, -row.taker_points))

    def records(self) -> ClubRecords:
        best_evening, worst_evening = self.evening_bests()
        return ClubRecords(
            biggest_win=self.biggest_win,
            biggest_loss=self.biggest_loss,
            best_evening=best_evening,
            worst_evening=worst_evening,
            streaks=dict(self.longest_runs),
            chelems=tallies(self.chelems),
            petits_au_bout=tallies(self.petits),
        )


def figures_state(deals: Iterable[DealFacts], *, min_takes: int = MIN_TAKES) -> FiguresState:
    """Every figure from the first deal."""
    return FiguresState(min_takes=min_takes).advance(deals)
