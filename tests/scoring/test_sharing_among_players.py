from __future__ import annotations

import pytest

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal, deal_outcome, score_deal, shares


@pytest.mark.parametrize(
    ("seated", "alone", "factors"),
    [(3, True, (2, 0)), (4, True, (3, 0)), (5, True, (4, 0)), (5, False, (2, 1))],
)
def test_shares_give_the_taker_and_partner_factors(seated, alone, factors):
    assert shares(seated, alone) == factors


def test_shares_default_to_a_taker_alone():
    assert shares(4) == (3, 0)


@pytest.mark.parametrize("seated", [2, 6, 0, True, "4"])
def test_shares_refuse_a_table_that_cannot_play(seated):
    with pytest.raises(ScoringError) as caught:
        shares(seated)
    assert caught.value.field == "seated"


@pytest.mark.parametrize("seated", [3, 4])
def test_shares_refuse_a_partner_without_five_seated(seated):
    with pytest.raises(ScoringError) as caught:
        shares(seated, alone=False)
    assert caught.value.field == "partner"


def test_with_three_seated_the_taker_gets_twice_the_value():
    scores = score_deal(TarotDeal(("A", "B", "C"), "B", "petite", 2, 41))
    assert scores == {"A": -25, "B": 50, "C": -25}


def test_with_four_seated_the_taker_gets_three_times_the_value():
    scores = score_deal(TarotDeal(("A", "B", "C", "D"), "C", "petite", 2, 41))
    assert scores == {"A": -25, "B": -25, "C": 75, "D": -25}


def test_with_five_seated_and_a_called_partner_the_taker_gets_two_and_the_partner_one():
    scores = score_deal(TarotDeal(("A", "B", "C", "D", "E"), "C", "petite", 2, 41, partner="E"))
    assert scores == {"A": -25, "B": -25, "C": 50, "D": -25, "E": 25}


def test_with_five_seated_and_the_taker_alone_the_taker_gets_four_times_the_value():
    scores = score_deal(TarotDeal(("A", "B", "C", "D", "E"), "C", "petite", 2, 41, partner="C"))
    assert scores == {"A": -25, "B": -25, "C": 100, "D": -25, "E": -25}


def test_a_failed_contract_with_a_partner_costs_both():
    scores = score_deal(TarotDeal(("A", "B", "C", "D", "E"), "A", "garde", 0, 50, partner="B"))
    assert scores == {"A": -124, "B": -62, "C": 62, "D": 62, "E": 62}


def test_players_can_be_database_ids():
    scores = score_deal(TarotDeal((7, 3, 12, 5), 12, "garde", 2, 49))
    assert scores == {7: -66, 3: -66, 12: 198, 5: -66}


def test_the_scores_follow_the_seat_order():
    outcome = deal_outcome(TarotDeal(("D", "C", "B", "A"), "B", "petite", 2, 41))
    assert list(outcome.scores) == ["D", "C", "B", "A"]


def test_only_the_seated_players_score():
    seated = ("Ana", "Ben", "Chloé", "Dan", "Eve")
    scores = score_deal(TarotDeal(seated, "Ana", "garde", 2, 49, partner="Dan"))
    assert set(scores) == set(seated)
    assert "Fay" not in scores


def test_a_deal_everyone_passed_scores_0_for_all():
    assert score_deal(PassedDeal(("A", "B", "C", "D"))) == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_a_passed_deal_still_needs_three_to_five_seated():
    with pytest.raises(ScoringError) as caught:
        score_deal(PassedDeal(("A", "B")))
    assert caught.value.field == "seated"
