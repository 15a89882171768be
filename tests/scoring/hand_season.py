"""A small hand-made season for the club figures' tests (two evenings, ten deals), and the
check that a kept state's figures equal the same deals' figures computed from scratch."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from fractions import Fraction

from scorekeeper.scoring.club_figures import (
    MIN_TAKES,
    Pair,
    Player,
    _payments,
    contract_table,
    partnerships,
    point_flow,
)
from scorekeeper.scoring.club_records import (
    ClubRecords,
    EveningRecord,
    Tally,
    deal_records,
    evening_bests,
    feat_deals,
    made_streaks,
    tallies,
)
from scorekeeper.scoring.club_state import FiguresState
from scorekeeper.scoring.deal_facts import DealFacts, in_order
from scorekeeper.scoring.ratings import RatingState
from scorekeeper.scoring.tarot import TarotDeal, deal_outcome
from tools.bench.rating_club import passed_deal

FOUR = ("A", "B", "C", "D")
FIVE = ("A", "B", "C", "D", "E")


def replay(deals: Iterable[DealFacts]) -> RatingState:
    """The ratings from scratch over these deals."""
    return RatingState().advance(deals)


def played(
    deal_id: int,
    evening_id: int,
    seated: tuple[str, ...],
    taker: str,
    contract: str,
    bouts: int,
    points: float,
    *,
    partner: str | None = None,
    petit_au_bout: str = "",
    chelem: str = "",
) -> DealFacts:
    """A deal scored by the real rules, as the reading side will describe it."""
    deal = TarotDeal(
        seated=seated,
        taker=taker,
        contract=contract,
        bouts=bouts,
        points=points,
        partner=partner if partner or len(seated) != 5 else taker,
        petit_au_bout=petit_au_bout or None,
        chelem=chelem or None,
    )
    return DealFacts.scored(deal, deal_outcome(deal), deal_id=deal_id, evening_id=evening_id)


def passed(deal_id: int, evening_id: int, seated: tuple[str, ...]) -> DealFacts:
    return passed_deal(seated, deal_id=deal_id, evening_id=evening_id)


def paper(deal_id: int, evening_id: int, scores: dict[str, int]) -> DealFacts:
    return DealFacts(
        deal_id=deal_id,
        evening_id=evening_id,
        ordinal=deal_id,
        seated=tuple(scores),
        scores=scores,
        paper=True,
    )


def season() -> list[DealFacts]:
    """Evening 1 at four (A, B, C, D), evening 2 at five (with E)."""
    return [
        played(1, 1, FOUR, "A", "garde", 2, 49),  # A +198, others -66
        played(2, 1, FOUR, "B", "petite", 1, 51),  # B +75, others -25
        passed(3, 1, FOUR),
        played(4, 1, FOUR, "A", "garde", 1, 48, petit_au_bout="attack"),  # A -108, others +36
        paper(5, 1, {"A": 30, "B": -10, "C": -10, "D": -10}),
        played(6, 1, FOUR, "A", "petite", 1, 60),  # A +102, others -34
        played(7, 2, FIVE, "A", "garde", 2, 45.5, partner="B"),  # A +120, B +60, others -60
        played(8, 2, FIVE, "C", "garde_contre", 1, 47, petit_au_bout="attack"),  # alone, fails
        played(9, 2, FIVE, "D", "garde_sans", 3, 91, partner="E", chelem="announced"),
        played(10, 2, FIVE, "A", "garde", 2, 50, partner="E"),
    ]


def corrected(deals: list[DealFacts], deal_id: int, new: DealFacts) -> list[DealFacts]:
    """The season with one deal replaced (same id and place) by another."""
    return [
        replace(new, deal_id=deal_id, ordinal=d.ordinal) if d.deal_id == deal_id else d
        for d in deals
    ]


def same_as_replay(state: FiguresState, deals: list[DealFacts]) -> None:
    """Every figure of the state equals the figures of these deals computed from scratch."""
    again = replay(deals)
    assert state.deals == len(deals)
    assert state.point_flow() == point_flow(deals)
    assert state.partnerships() == partnerships(deals)
    assert state.contracts == contract_table(deals)
    assert state.records() == club_records(deals)
    lasts = {t.deal_ids[-1] for t in [*state.records().chelems, *state.records().petits_au_bout]}
    assert state.feat_evenings == {d.deal_id: d.evening_id for d in deals if d.deal_id in lasts}
    assert state.ratings.quality == again.quality  # the floats, to the last bit
    assert state.ratings.table() == again.table()  # mu, sigma, deals and history


# The figures from scratch, that the kept state must equal --------------------------------


def figures_state(deals: Iterable[DealFacts], *, min_takes: int = MIN_TAKES) -> FiguresState:
    """Every figure from the first deal."""
    return FiguresState(min_takes=min_takes).advance(deals)


def deal_flow(scores: Mapping[Player, int]) -> dict[Pair, Fraction]:
    """Who paid whom in one deal: {(payer, payee): points}; ValueError if not zero-sum."""
    payments = _payments(scores)
    if payments is None:
        raise ValueError(f"the scores do not sum to zero: {dict(scores)!r}")
    won, parts = payments
    return {pair: Fraction(numerator, won) for pair, numerator in parts}


def evening_totals(deals: Iterable[DealFacts]) -> dict[int, dict[Player, int]]:
    """Each night's total per player, nights in the order of their first deal: an evening,
    or a tournament's tables (by its first evening)."""
    totals: dict[int, dict[Player, int]] = {}
    firsts: dict[int, int] = {}
    for deal in in_order(deals):
        night = firsts.setdefault(deal.night, deal.evening_id) if deal.night else deal.evening_id
        evening = totals.setdefault(night, {})
        for player, score in deal.scores.items():
            evening[player] = evening.get(player, 0) + score
    return totals


def evening_records(deals: list[DealFacts]) -> tuple[EveningRecord | None, EveningRecord | None]:
    return evening_bests(evening_totals(deals))


def feats(deals: Iterable[DealFacts]) -> tuple[list[Tally], list[Tally]]:
    """(chelems, petits au bout) per player of the side that made them, the most first."""
    chelems: dict[Player, list[int]] = {}
    petits: dict[Player, list[int]] = {}
    feat_deals(deals, chelems, petits)
    return tallies(chelems), tallies(petits)


def club_records(deals: Iterable[DealFacts]) -> ClubRecords:
    """All the records over these deals."""
    ordered = in_order(deals)
    biggest_win, biggest_loss = deal_records(ordered)
    best_evening, worst_evening = evening_records(ordered)
    chelems, petits = feats(ordered)
    return ClubRecords(
        biggest_win=biggest_win,
        biggest_loss=biggest_loss,
        best_evening=best_evening,
        worst_evening=worst_evening,
        streaks=made_streaks(ordered),
        chelems=chelems,
        petits_au_bout=petits,
    )
