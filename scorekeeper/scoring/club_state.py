"""Every club figure over some deals, as one state that later deals extend (pure).

The read side stores the state of the settled evenings (:meth:`~FiguresState.settle`) and
:meth:`~FiguresState.advance`-s what it reads back with tonight's deals. Ties go by the
deals' order, never the order of adding; the figures equal the same figures computed from scratch
(the tests say so).

The state has four parts (``PARTS``), each advanced on its own: a page shows one, so it
keeps and extends :meth:`~FiguresState.part` alone (``advance(deals, parts=(name,))``).
"""

from __future__ import annotations

from array import array
from collections.abc import Collection, Hashable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from scorekeeper.scoring.club_figures import (
    MIN_TAKES,
    Partnership,
    PlayerContracts,
    PointFlow,
    contract_table,
    partnership_order,
    partnerships,
    point_flow,
)
from scorekeeper.scoring.club_records import (
    ClubRecords,
    DealRecord,
    EveningRecord,
    Streak,
    deal_records,
    evening_bests,
    feat_deals,
    made_streaks,
    tallies,
)
from scorekeeper.scoring.deal_facts import DealFacts, in_order
from scorekeeper.scoring.ratings import RatingState

Player = Hashable
Pair = tuple[Player, Player]


Key = tuple[int, int]  # a deal's place: (ordinal, deal id)


_RECORDS = """biggest_win biggest_loss best_evening worst_evening current_runs longest_runs
chelems petits feat_evenings open_evenings firsts tournaments win_key loss_key best_at worst_at"""

#: The state's parts: the fields each one holds (every part holds ``deals`` and ``min_takes``).
PARTS: dict[str, tuple[str, ...]] = {
    "ratings": ("ratings",),
    "flow": ("paid", "flow_deals", "unbalanced", "partners"),
    "contracts": ("contracts",),
    "records": tuple(_RECORDS.split()),
}


def _key(deal: DealFacts) -> Key:
    return (deal.ordinal, deal.deal_id)


def _beats(old: int, old_key: Key | None, new: int, key: Key, sign: int) -> bool:
    """True when a new record stands over the old (none if ``old_key`` is None): higher, or
    as high and earlier."""
    if old_key is None or new != old:
        return old_key is None or sign * new > sign * old
    return key < old_key


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
    chelems: dict[Player, array[int]] = field(default_factory=dict)  # player -> his deal ids
    petits: dict[Player, array[int]] = field(default_factory=dict)
    feat_evenings: dict[int, int] = field(default_factory=dict)  # each last one -> its evening
    # Each open night's totals so far and its first deal, by the night's first evening; a
    # tournament's tables are one night (``DealFacts.night``), kept open: tournament -> night.
    open_evenings: dict[int, dict[Player, int]] = field(default_factory=dict)
    firsts: dict[int, Key] = field(default_factory=dict)
    tournaments: dict[int, int] = field(default_factory=dict)
    deals: int = 0
    win_key: Key | None = None  # the deal of the biggest win, and of the biggest loss
    loss_key: Key | None = None
    best_at: Key | None = None  # the first deal of the best evening's night, and the worst's
    worst_at: Key | None = None

    def advance(
        self, deals: Iterable[DealFacts], *, parts: Collection[str] = PARTS
    ) -> FiguresState:
        """Add deals that come after every deal already in the state (else OutOfOrder), to
        these parts alone (every part by default)."""
        batch = in_order(deals)
        if not batch:
            return self
        self.deals += len(batch)
        if "ratings" in parts:
            self.ratings.advance(batch)
        if "flow" in parts:
            self._add_flow(batch)
        if "contracts" in parts:
            contract_table(batch, min_takes=self.min_takes, table=self.contracts)
        if "records" in parts:
            self._add_records(batch)
        return self

    def part(self, name: str) -> FiguresState:
        """A state holding this part's figures alone (the others empty), sharing them with
        this one: what a page that shows only this part keeps."""
        fields = {field_name: getattr(self, field_name) for field_name in PARTS[name]}
        return FiguresState(min_takes=self.min_takes, deals=self.deals, **fields)

    def _add_flow(self, batch: list[DealFacts]) -> None:
        flow = point_flow(batch)
        for pair, points in flow.paid.items():
            self.paid[pair] = self.paid.get(pair, Fraction(0)) + points
        self.flow_deals += flow.deals
        self.unbalanced.extend(flow.unbalanced)
        partnerships(batch, self.partners)

    def _add_records(self, batch: list[DealFacts]) -> None:
        for deal in batch:
            win, loss = deal_records([deal])
            old = getattr(self.biggest_win, "score", 0)
            if win is not None and _beats(old, self.win_key, win.score, _key(deal), 1):
                self.biggest_win, self.win_key = win, _key(deal)
            old = getattr(self.biggest_loss, "score", 0)
            if loss is not None and _beats(old, self.loss_key, loss.score, _key(deal), -1):
                self.biggest_loss, self.loss_key = loss, _key(deal)
        self._evenings(batch)
        made_streaks(batch, current=self.current_runs, longest=self.longest_runs)
        feat_deals(batch, self.chelems, self.petits)
        lasts = {ids[-1] for found in (self.chelems, self.petits) for ids in found.values()}
        evenings = self.feat_evenings | {deal.deal_id: deal.evening_id for deal in batch}
        self.feat_evenings = {deal: evenings[deal] for deal in lasts}

    def _evenings(self, batch: list[DealFacts]) -> None:
        """Add up the batch's deals in their nights' totals."""
        for deal in batch:
            night = deal.evening_id
            if deal.night:
                night = self.tournaments.setdefault(deal.night, night)
            self.firsts.setdefault(night, _key(deal))  # the deals come in order
            totals = self.open_evenings.setdefault(night, {})
            for player, score in deal.scores.items():
                totals[player] = totals.get(player, 0) + score

    def settle(self) -> FiguresState:
        """Count the open evenings in the best and worst evening: no deal of theirs, nor any
        deal before the last one, is added after this. A tournament's night stays open (its
        tables may be moved to later dates): the few of them are kept."""
        kept = set(self.tournaments.values())
        bests = self._bests([night for night in self.open_evenings if night not in kept])
        self.best_evening, self.best_at, self.worst_evening, self.worst_at = bests
        self.open_evenings = {n: totals for n, totals in self.open_evenings.items() if n in kept}
        self.firsts = {night: key for night, key in self.firsts.items() if night in kept}
        return self

    def _bests(
        self, nights: Iterable[int]
    ) -> tuple[EveningRecord | None, Key | None, EveningRecord | None, Key | None]:
        """The best and worst evening with these open nights counted, and their first deals."""
        best, best_at = self.best_evening, self.best_at
        worst, worst_at = self.worst_evening, self.worst_at
        for night in nights:
            high, low = evening_bests({night: self.open_evenings[night]})
            at = self.firsts[night]
            if high is not None and _beats(getattr(best, "total", 0), best_at, high.total, at, 1):
                best, best_at = high, at
            if low is not None and _beats(getattr(worst, "total", 0), worst_at, low.total, at, -1):
                worst, worst_at = low, at
        return best, best_at, worst, worst_at

    def evening_bests(self) -> tuple[EveningRecord | None, EveningRecord | None]:
        """The best and worst evening, the open ones counted."""
        best, _, worst, _ = self._bests(self.open_evenings)
        return best, worst

    def point_flow(self) -> PointFlow:
        return PointFlow(
            paid=dict(self.paid), deals=self.flow_deals, unbalanced=tuple(self.unbalanced)
        )

    def partnerships(self) -> list[Partnership]:
        """As ``club_figures.partnerships``: the most deals first, then the taker's points."""
        return sorted(self.partners.values(), key=partnership_order)

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
