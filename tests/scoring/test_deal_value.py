from __future__ import annotations

from decimal import Decimal

import pytest

from scorekeeper.scoring.rules import FFT_RULES
from scorekeeper.scoring.tarot import (
    CHELEM_VALUES,
    CHIEN_SIZE,
    POIGNEE_TRUMPS,
    TARGETS,
    Contract,
    TarotDeal,
    deal_outcome,
    score_deal,
)

FOUR = ("A", "B", "C", "D")
THREE = ("A", "B", "C")
FIVE = ("A", "B", "C", "D", "E")


def deal(seated=FOUR, contract="garde", bouts=2, points=41, **extra) -> TarotDeal[str]:
    return TarotDeal(
        seated=seated, taker="A", contract=contract, bouts=bouts, points=points, **extra
    )


def value_of(**kwargs) -> int:
    return deal_outcome(deal(**kwargs)).value


WORKED_EXAMPLES = [
    pytest.param(
        deal(contract="garde", bouts=2, points=49),
        {"A": 198, "B": -66, "C": -66, "D": -66},
        id="1-garde-2-bouts-49",
    ),
    pytest.param(
        deal(contract="petite", bouts=1, points=51),
        {"A": 75, "B": -25, "C": -25, "D": -25},
        id="2-petite-1-bout-51",
    ),
    pytest.param(
        deal(contract="garde_contre", bouts=2, points=44, petit_au_bout="defense"),
        {"A": 324, "B": -108, "C": -108, "D": -108},
        id="3-garde-contre-petit-au-bout-defence",
    ),
    pytest.param(
        deal(contract="garde", bouts=1, points=48, petit_au_bout="attack"),
        {"A": -108, "B": 36, "C": 36, "D": 36},
        id="4-garde-failed-petit-au-bout-attack",
    ),
    pytest.param(
        deal(contract="garde", bouts=3, points=56, petit_au_bout="attack", poignees=("simple",)),
        {"A": 390, "B": -130, "C": -130, "D": -130},
        id="5-garde-3-bouts-petit-au-bout-poignee",
    ),
    pytest.param(
        deal(contract="petite", bouts=2, points=38, poignees=("simple", "double")),
        {"A": -234, "B": 78, "C": 78, "D": 78},
        id="6-petite-failed-two-poignees",
    ),
    pytest.param(
        deal(
            contract="garde_sans",
            bouts=3,
            points=91,
            petit_au_bout="attack",
            chelem="announced",
        ),
        {"A": 2280, "B": -760, "C": -760, "D": -760},
        id="7-garde-sans-chelem-announced",
    ),
    pytest.param(
        deal(contract="garde", bouts=3, points=70, chelem="announced_failed"),
        {"A": -246, "B": 82, "C": 82, "D": 82},
        id="8-garde-chelem-announced-failed",
    ),
    pytest.param(
        deal(seated=THREE, contract="garde", bouts=2, points=40.5),
        {"A": -104, "B": 52, "C": 52},
        id="9-three-players-garde-40.5",
    ),
    pytest.param(
        deal(seated=THREE, contract="petite", bouts=1, points=51.5, poignees=("simple",)),
        {"A": 92, "B": -46, "C": -46},
        id="10-three-players-petite-51.5-poignee",
    ),
    pytest.param(
        deal(
            seated=FIVE,
            contract="garde",
            bouts=2,
            points=45.5,
            partner="B",
            poignees=("simple",),
        ),
        {"A": 160, "B": 80, "C": -80, "D": -80, "E": -80},
        id="11-five-players-called-partner",
    ),
    pytest.param(
        deal(
            seated=FIVE,
            contract="garde_contre",
            bouts=1,
            points=47,
            partner="A",
            petit_au_bout="attack",
        ),
        {"A": -456, "B": 114, "C": 114, "D": 114, "E": 114},
        id="12-five-players-taker-alone",
    ),
]


@pytest.mark.parametrize(("the_deal", "expected"), WORKED_EXAMPLES)
def test_each_worked_example_of_the_rules_scores_every_player(the_deal, expected):
    assert score_deal(the_deal) == expected
    assert sum(expected.values()) == 0


def test_a_garde_with_two_bouts_and_49_points_pays_66_each():
    outcome = deal_outcome(deal(contract="garde", bouts=2, points=49))
    assert (outcome.target, outcome.made, outcome.gap, outcome.multiplier) == (41, True, 8, 2)
    assert outcome.value == 66
    assert outcome.attack_points == Decimal("49.0")


@pytest.mark.parametrize(("bouts", "target"), [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_the_target_falls_as_the_attack_holds_more_bouts(bouts, target):
    assert TARGETS[bouts] == target
    assert deal_outcome(deal(bouts=bouts, points=target)).target == target


@pytest.mark.parametrize(
    ("contract", "multiplier"),
    [("petite", 1), ("garde", 2), ("garde_sans", 4), ("garde_contre", 6)],
)
def test_each_contract_multiplies_the_base_value(contract, multiplier):
    assert FFT_RULES.multiplier(Contract(contract)) == multiplier
    assert value_of(contract=contract, bouts=2, points=41) == 25 * multiplier


def test_a_contract_can_be_given_as_the_enum_or_its_text():
    assert value_of(contract=Contract.GARDE_SANS) == value_of(contract="garde_sans") == 100


def test_the_chien_has_six_cards_with_three_or_four_players_and_three_with_five():
    assert CHIEN_SIZE == {3: 6, 4: 6, 5: 3}


def test_exactly_on_target_is_made_by_0():
    outcome = deal_outcome(deal(contract="petite", bouts=2, points=41))
    assert outcome.made
    assert outcome.gap == 0
    assert outcome.value == 25


def test_half_a_point_short_fails_by_1():
    outcome = deal_outcome(deal(contract="petite", bouts=2, points=40.5))
    assert not outcome.made
    assert outcome.gap == 1
    assert outcome.value == -26


def test_half_a_point_over_is_made_by_1():
    outcome = deal_outcome(deal(contract="petite", bouts=2, points=41.5))
    assert outcome.made
    assert outcome.gap == 1
    assert outcome.value == 26


def test_a_failed_contract_by_a_whole_number_keeps_its_gap():
    outcome = deal_outcome(deal(contract="petite", bouts=0, points=50))
    assert (outcome.made, outcome.gap, outcome.value) == (False, 6, -31)


@pytest.mark.parametrize(
    ("points", "side", "value"),
    [
        (41, "attack", 2 * 25 + 20),
        (41, "defense", 2 * 25 - 20),
        (40, "attack", -2 * 26 + 20),
        (40, "defense", -2 * 26 - 20),
    ],
)
def test_the_petit_au_bout_goes_to_its_side_made_or_failed(points, side, value):
    assert value_of(contract="garde", bouts=2, points=points, petit_au_bout=side) == value


def test_the_petit_au_bout_is_multiplied_by_the_contract():
    assert value_of(contract="garde_contre", bouts=2, points=41, petit_au_bout="attack") == (
        6 * 25 + 60
    )


def test_poignee_values_and_trump_counts_follow_the_table():
    assert {kind: FFT_RULES.poignee_value(kind) for kind in ("simple", "double", "triple")} == {
        "simple": 20,
        "double": 30,
        "triple": 40,
    }
    assert POIGNEE_TRUMPS == {
        3: {"simple": 13, "double": 15, "triple": 18},
        4: {"simple": 10, "double": 13, "triple": 15},
        5: {"simple": 8, "double": 10, "triple": 13},
    }


@pytest.mark.parametrize("poignee", ["simple", "double", "triple"])
def test_a_poignee_goes_to_the_attack_when_the_contract_is_made(poignee):
    plain = value_of(contract="garde", points=45)
    assert value_of(contract="garde", points=45, poignees=(poignee,)) == (
        plain + FFT_RULES.poignee_value(poignee)
    )


@pytest.mark.parametrize("poignee", ["simple", "double", "triple"])
def test_a_poignee_goes_to_the_defence_when_the_contract_fails(poignee):
    plain = value_of(contract="garde", points=35)
    assert value_of(contract="garde", points=35, poignees=(poignee,)) == (
        plain - FFT_RULES.poignee_value(poignee)
    )


def test_poignees_are_never_multiplied():
    assert value_of(contract="garde_contre", poignees=("triple",)) == 6 * 25 + 40


def test_several_poignees_each_count():
    assert value_of(contract="petite", poignees=("simple", "simple", "triple")) == 25 + 80


@pytest.mark.parametrize(
    ("chelem", "term"),
    [("announced", 400), ("unannounced", 200), ("announced_failed", -200), ("defense", -200)],
)
def test_each_chelem_adds_its_unmultiplied_term(chelem, term):
    assert CHELEM_VALUES[chelem] == term
    assert value_of(contract="garde_sans", bouts=3, points=80, chelem=chelem) == (
        4 * (25 + 44) + term
    )


def test_a_chelem_taken_by_the_defence_pays_200_to_the_defence():
    scores = score_deal(deal(contract="petite", bouts=0, points=6, chelem="defense"))
    assert scores == {"A": -3 * 275, "B": 275, "C": 275, "D": 275}
