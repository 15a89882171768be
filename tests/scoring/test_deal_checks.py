from __future__ import annotations

import pytest

from scorekeeper.scoring.deal_checks import check_bouts
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.tarot import (
    PassedDeal,
    TarotDeal,
    deal_outcome,
    score_deal,
    validate_deal,
)

FOUR = ("A", "B", "C", "D")
FIVE = ("A", "B", "C", "D", "E")


def deal(**changes) -> TarotDeal[str]:
    fields = {
        "seated": FOUR,
        "taker": "A",
        "contract": "garde",
        "bouts": 2,
        "points": 49,
    }
    fields.update(changes)
    return TarotDeal(**fields)


def field_of_error(the_deal) -> str:
    with pytest.raises(ScoringError) as caught:
        validate_deal(the_deal)
    with pytest.raises(ScoringError):
        score_deal(the_deal)
    return caught.value.field


def test_a_sound_deal_passes_every_check():
    validate_deal(deal())
    validate_deal(deal(seated=FIVE, partner="B", poignees=["simple"], chelem="unannounced"))
    validate_deal(PassedDeal(FIVE))


@pytest.mark.parametrize(
    "seated",
    [
        ("A", "B"),
        ("A", "B", "C", "D", "E", "F"),
        ("A", "B", "A", "D"),
        "ABCD",
        None,
        (["A"], "B", "C"),
    ],
)
def test_a_table_of_the_wrong_size_or_with_a_player_twice_is_refused(seated):
    assert field_of_error(deal(seated=seated, taker="B")) == "seated"


def test_a_taker_who_is_not_seated_is_refused():
    assert field_of_error(deal(taker="Z")) == "taker"


@pytest.mark.parametrize("contract", ["gard", "Garde", "", None, 2])
def test_an_unknown_contract_is_refused(contract):
    assert field_of_error(deal(contract=contract)) == "contract"


@pytest.mark.parametrize("bouts", [-1, 4, 2.0, 1.5, "2", True, None])
def test_bouts_must_be_a_whole_number_from_0_to_3(bouts):
    assert field_of_error(deal(bouts=bouts)) == "bouts"


def test_the_bouts_check_refuses_an_impossible_number_of_bouts():
    with pytest.raises(ScoringError) as caught:
        check_bouts(4)
    assert caught.value.field == "bouts"


@pytest.mark.parametrize("points", [-0.5, 91.5, 93, 45.2, "lots", None, True, float("nan")])
def test_points_must_be_0_to_91_in_half_points(points):
    assert field_of_error(deal(points=points)) == "points"


def test_points_above_91_read_as_more_than_91():
    with pytest.raises(ScoringError) as caught:
        validate_deal(deal(points=93))
    assert str(caught.value) == "points: 93 is more than 91"


@pytest.mark.parametrize(("bouts", "points"), [(3, 13), (2, 8.5), (1, 4), (0, 78), (1, 82.5)])
def test_the_points_must_hold_the_bouts_on_each_side(bouts, points):
    assert field_of_error(deal(bouts=bouts, points=points)) == "points"


@pytest.mark.parametrize(("bouts", "points"), [(3, 13.5), (0, 77.5), (1, 82), (2, 9)])
def test_the_bouts_just_fit_at_the_edges(bouts, points):
    validate_deal(deal(bouts=bouts, points=points))


def test_the_bouts_message_says_which_pile_cannot_hold_them():
    with pytest.raises(ScoringError) as caught:
        validate_deal(deal(bouts=0, points=80))
    assert "defence" in caught.value.message
    assert "11" in caught.value.message


def test_five_seated_need_a_partner():
    assert field_of_error(deal(seated=FIVE)) == "partner"


def test_the_partner_must_be_seated():
    assert field_of_error(deal(seated=FIVE, partner="Z")) == "partner"


@pytest.mark.parametrize("seated", [("A", "B", "C"), FOUR])
def test_a_partner_with_three_or_four_seated_is_refused(seated):
    assert field_of_error(deal(seated=seated, partner="B")) == "partner"


def test_a_taker_may_call_himself_with_five_seated():
    assert deal_outcome(deal(seated=FIVE, partner="A")).scores["A"] == 4 * 66


@pytest.mark.parametrize("side", ["both", "Attack", "defence", 1, True])
def test_an_unknown_petit_au_bout_side_is_refused(side):
    assert field_of_error(deal(petit_au_bout=side)) == "petit_au_bout"


def test_the_attack_cannot_take_the_petit_au_bout_without_a_bout():
    assert field_of_error(deal(bouts=0, points=56, petit_au_bout="attack")) == "petit_au_bout"


def test_the_defence_cannot_take_the_petit_au_bout_when_the_attack_holds_all_three():
    assert field_of_error(deal(bouts=3, points=56, petit_au_bout="defense")) == "petit_au_bout"


@pytest.mark.parametrize(
    "poignees",
    [("quadruple",), ("simple", None), "simple", None, ("simple",) * 5],
)
def test_poignees_must_be_known_and_at_most_one_per_seated_player(poignees):
    assert field_of_error(deal(poignees=poignees)) == "poignees"


def test_one_poignee_for_each_seated_player_is_allowed():
    validate_deal(deal(poignees=("simple",) * 4))


@pytest.mark.parametrize("chelem", ["made", "", "Announced", 400, True])
def test_an_unknown_chelem_is_refused(chelem):
    assert field_of_error(deal(chelem=chelem)) == "chelem"


@pytest.mark.parametrize("thing", [None, {"taker": "A"}, "garde"])
def test_something_that_is_not_a_deal_is_refused(thing):
    with pytest.raises(ScoringError):
        deal_outcome(thing)  # type: ignore[arg-type]
