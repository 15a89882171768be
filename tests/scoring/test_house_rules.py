"""House rules: each rule alone and together, worked by hand (V = what each defender pays)."""

from __future__ import annotations

import itertools
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.rules import (
    FFT_RULES,
    MISERE_VALUES,
    MULTIPLIER_TABLES,
    PETIT_AU_BOUT_MODES,
    POIGNEE_TABLES,
    HouseRules,
    misere_payments,
    rules_from_data,
)
from scorekeeper.scoring.tarot import (
    Contract,
    PassedDeal,
    TarotDeal,
    deal_outcome,
    score_deal,
    validate_deal,
)
from tests.scoring.test_properties import tarot_deals

FOUR = ("A", "B", "C", "D")
SIX = ("A", "B", "C", "D", "E", "F")

#: Every combination of the five rules: 2 x 2 x 2 x 2 x 3 = 48.
EVERY_RULES = [
    HouseRules(*combination)
    for combination in itertools.product(
        MULTIPLIER_TABLES, POIGNEE_TABLES, (False, True), PETIT_AU_BOUT_MODES, MISERE_VALUES
    )
]


def deal(contract: str = "garde", bouts: int = 2, points: float = 49, **extra) -> TarotDeal:
    return TarotDeal(FOUR, "A", contract, bouts, points, **extra)


def table(taker: int, others: int) -> dict[str, int]:
    return {"A": taker, "B": others, "C": others, "D": others}


def coded(call, *args, **kwargs) -> ScoringError:
    with pytest.raises(ScoringError) as caught:
        call(*args, **kwargs)
    return caught.value


# --- the value itself


def test_the_default_rules_are_the_fft_rules():
    assert HouseRules() == FFT_RULES
    assert (FFT_RULES.multipliers, FFT_RULES.poignees, FFT_RULES.petit_au_bout) == (
        "fft",
        "20-30-40",
        "last_trick",
    )
    assert (FFT_RULES.poignee_multiplied, FFT_RULES.misere) == (False, 0)


def test_house_rules_cannot_be_changed_once_made():
    with pytest.raises(FrozenInstanceError):
        FFT_RULES.misere = 10  # type: ignore[misc]


def test_there_are_48_combinations_and_all_are_valid():
    assert len(set(EVERY_RULES)) == 48


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("multipliers", "russian"),
        ("poignees", "20-40-80"),
        ("poignee_multiplied", 1),
        ("poignee_multiplied", "true"),
        ("petit_au_bout", "attack"),
        ("misere", 15),
        ("misere", True),
        ("misere", 10.0),
    ],
)
def test_a_value_that_is_not_a_choice_is_refused_naming_the_rule(field, value):
    error = coded(HouseRules, **{field: value})
    assert (error.field, error.code, error.params["rule"]) == ("rules", "rule_choice", field)
    assert error.message.startswith(f"{error.params['value']} is not a choice for {field} (")


def test_the_fft_rules_write_an_empty_rules_object():
    assert FFT_RULES.to_data() == {}


def test_to_data_writes_only_the_rules_that_differ_from_the_fft():
    rules = HouseRules(multipliers="classic", misere=10)
    assert rules.to_data() == {"multipliers": "classic", "misere": 10}
    assert rules_from_data(rules.to_data()) == rules


@pytest.mark.parametrize("rules", EVERY_RULES)
def test_every_combination_reads_back_from_its_data(rules):
    assert rules_from_data(rules.to_data()) == rules


def test_rules_from_data_refuses_a_key_it_does_not_know():
    error = coded(rules_from_data, {"misere": 10, "excuse": "half"})
    assert (error.field, error.code) == ("excuse", "unknown_key")
    assert "misere" in error.message


def test_rules_from_data_refuses_what_is_not_an_object():
    error = coded(rules_from_data, ["classic"])
    assert (error.field, error.code, error.message) == (
        "rules",
        "not_object",
        '["classic"] is not a JSON object',
    )


def test_a_scoring_function_refuses_rules_that_are_not_house_rules():
    error = coded(score_deal, deal(), {"misere": 10})
    assert error.field == "rules"


# --- multipliers


def test_classic_multipliers_are_1_2_3_4():
    classic = HouseRules(multipliers="classic")
    assert [classic.multiplier(c) for c in Contract] == [1, 2, 3, 4]
    assert [FFT_RULES.multiplier(c) for c in Contract] == [1, 2, 4, 6]


def test_a_classic_garde_sans_multiplies_by_3():
    # garde sans, 2 bouts, 49: made by 8. FFT: V = 33 x 4 = 132; classic: V = 33 x 3 = 99.
    assert score_deal(deal("garde_sans")) == table(396, -132)
    assert score_deal(deal("garde_sans"), HouseRules(multipliers="classic")) == table(297, -99)


def test_a_classic_garde_contre_multiplies_by_4_and_so_does_its_petit_au_bout():
    # garde contre, 2 bouts, 44 (made by 3), petit au bout to the defence:
    # FFT V = 28 x 6 - 10 x 6 = 108; classic V = 28 x 4 - 10 x 4 = 72.
    played = deal("garde_contre", 2, 44, petit_au_bout="defense")
    assert score_deal(played) == table(324, -108)
    outcome = deal_outcome(played, HouseRules(multipliers="classic"))
    assert (outcome.multiplier, outcome.value) == (4, 72)
    assert outcome.scores == table(216, -72)


def test_petite_and_garde_are_the_same_under_both_multipliers():
    classic = HouseRules(multipliers="classic")
    assert score_deal(deal("petite"), classic) == score_deal(deal("petite")) == table(99, -33)
    assert score_deal(deal("garde"), classic) == score_deal(deal("garde")) == table(198, -66)


# --- poignées 20-40-60


def test_a_double_poignee_is_40_and_a_triple_60_under_20_40_60():
    # garde, 2 bouts, 49: 33 x 2 = 66. FFT double: V = 96; 20-40-60 double: V = 106.
    rules = HouseRules(poignees="20-40-60")
    assert score_deal(deal(poignees=("double",))) == table(288, -96)
    assert score_deal(deal(poignees=("double",)), rules) == table(318, -106)
    # triple: V = 66 + 60 = 126; a simple stays 20: V = 86.
    assert score_deal(deal(poignees=("triple",)), rules) == table(378, -126)
    assert score_deal(deal(poignees=("simple",)), rules) == table(258, -86)


def test_a_20_40_60_poignee_still_goes_to_the_side_that_wins():
    # petite, 2 bouts, 38: failed by 3, V = -(28 + 40) = -68.
    rules = HouseRules(poignees="20-40-60")
    assert score_deal(deal("petite", 2, 38, poignees=("double",)), rules) == table(-204, 68)


# --- poignée multiplied


def test_a_multiplied_poignee_counts_times_the_contract():
    # garde, 2 bouts, 49, one simple poignée: FFT V = 66 + 20 = 86; multiplied 66 + 40 = 106.
    rules = HouseRules(poignee_multiplied=True)
    assert score_deal(deal(poignees=("simple",))) == table(258, -86)
    assert score_deal(deal(poignees=("simple",)), rules) == table(318, -106)


def test_a_multiplied_poignee_goes_to_the_defence_when_the_contract_fails():
    # garde, 2 bouts, 38: failed by 3, V = -(28 x 2 + 20 x 2) = -96.
    rules = HouseRules(poignee_multiplied=True)
    assert score_deal(deal(points=38, poignees=("simple",)), rules) == table(-288, 96)


def test_multiplied_20_40_60_poignees_use_both_rules():
    # garde sans (FFT 4), 2 bouts, 49, a double and a triple: V = 33 x 4 + (40 + 60) x 4 = 532.
    rules = HouseRules(poignees="20-40-60", poignee_multiplied=True)
    played = deal("garde_sans", poignees=("double", "triple"))
    assert deal_outcome(played, rules).value == 532


# --- petit au bout to the deal's winner


def test_petit_au_bout_counted_like_a_poignee_goes_to_the_defence_when_the_contract_fails():
    # garde, 1 bout, 48: failed by 3. Attack led the Petit last.
    # FFT: V = -28 x 2 + 10 x 2 = -36 (rules.md example 4); deal winner: -56 - 20 = -76.
    played = deal("garde", 1, 48, petit_au_bout="attack")
    assert score_deal(played) == table(-108, 36)
    assert score_deal(played, HouseRules(petit_au_bout="deal_winner")) == table(-228, 76)


def test_petit_au_bout_counted_like_a_poignee_goes_to_the_attack_when_the_contract_is_made():
    # garde contre, 2 bouts, 44: made by 3. Defence led the Petit last.
    # FFT: V = 28 x 6 - 10 x 6 = 108 (rules.md example 3); deal winner: 168 + 60 = 228.
    played = deal("garde_contre", 2, 44, petit_au_bout="defense")
    assert score_deal(played) == table(324, -108)
    assert score_deal(played, HouseRules(petit_au_bout="deal_winner")) == table(684, -228)


def test_petit_au_bout_to_the_winner_changes_nothing_when_the_winner_led_it():
    played = deal("garde", 2, 49, petit_au_bout="attack")  # V = 66 + 20 = 86 both ways
    assert score_deal(played, HouseRules(petit_au_bout="deal_winner")) == score_deal(played)
    assert score_deal(played) == table(258, -86)


# --- misère


def test_a_misere_of_10_is_paid_by_each_other_seated_player():
    # garde, 2 bouts, 49: A +198, others -66. B announced a misère: A, C and D pay B 10 each.
    rules = HouseRules(misere=10)
    outcome = deal_outcome(deal(miseres=("B",)), rules)
    assert outcome.miseres == {"A": -10, "B": 30, "C": -10, "D": -10}
    assert outcome.scores == {"A": 188, "B": -36, "C": -76, "D": -76}
    assert outcome.value == 66  # the contract's value is unchanged


def test_two_miseres_of_20_pay_each_other_as_well():
    # B and C announce: each gets 20 from the 3 others (60) and pays 20 to the other (-20).
    outcome = deal_outcome(deal(miseres=("B", "C")), HouseRules(misere=20))
    assert outcome.miseres == {"A": -40, "B": 40, "C": 40, "D": -40}
    assert outcome.scores == {"A": 158, "B": -26, "C": -26, "D": -106}


def test_the_taker_may_announce_a_misere_whoever_wins():
    # petite, 2 bouts, 38: failed by 3, V = -28: A -84, others +28. A's misère of 10: +30.
    outcome = deal_outcome(deal("petite", 2, 38, miseres=("A",)), HouseRules(misere=10))
    assert outcome.scores == {"A": -54, "B": 18, "C": 18, "D": 18}


def test_the_misere_is_not_multiplied():
    rules = HouseRules(misere=10)
    for contract in Contract:
        assert deal_outcome(deal(contract, miseres=("D",)), rules).miseres["D"] == 30


def test_a_player_sitting_out_pays_no_misere():
    # Six at the table, F sits out: five seated, A garde calls B, 2 bouts, 49 (V = 66):
    # A +132, B +66, C D E -66. E's misère of 10 is paid by A, B, C and D: E +40.
    seated = SIX[:5]
    played = TarotDeal(seated, "A", "garde", 2, 49, partner="B", miseres=("E",))
    scores = score_deal(played, HouseRules(misere=10))
    assert scores == {"A": 122, "B": 56, "C": -76, "D": -76, "E": -26}
    assert "F" not in scores


def test_misere_payments_balance_to_zero():
    assert misere_payments(FOUR, ("A", "B", "C", "D"), 20) == dict.fromkeys(FOUR, 0)
    assert misere_payments(FOUR, (), 20) == dict.fromkeys(FOUR, 0)


def test_a_misere_is_refused_when_the_rules_score_none():
    error = coded(validate_deal, deal(miseres=("B",)))
    assert (error.field, error.code) == ("miseres", "misere_off")
    assert coded(score_deal, deal(miseres=("B",)), HouseRules(misere=0)).code == "misere_off"


def test_a_misere_by_a_player_who_is_not_seated_is_refused():
    error = coded(score_deal, deal(miseres=("F",)), HouseRules(misere=10))
    assert (error.field, error.code, error.message) == ("miseres", "not_seated", "F is not seated")


def test_a_player_announces_a_misere_at_most_once():
    error = coded(score_deal, deal(miseres=("B", "B")), HouseRules(misere=10))
    assert (error.field, error.code) == ("miseres", "twice")


def test_miseres_must_be_a_list_of_players():
    error = coded(score_deal, deal(miseres="B"), HouseRules(misere=10))
    assert (error.field, error.code) == ("miseres", "not_player_list")


def test_a_passed_deal_scores_0_under_any_rules():
    # Nobody played: a passed deal has no misère (PassedDeal has no such field).
    passed = PassedDeal(FOUR)
    for rules in EVERY_RULES:
        assert score_deal(passed, rules) == dict.fromkeys(FOUR, 0)


# --- several together


def test_every_rule_at_once():
    # garde sans, 2 bouts, 49 (made by 8), petit au bout led by the defence, one double
    # poignée, B's misère. Classic m = 3; the double is 40, times 3 = 120; the petit au bout
    # goes to the winner (the attack): +30. V = 99 + 120 + 30 = 249: A +747, others -249.
    # Misère 20: B +60, A C D -20 each.
    rules = HouseRules("classic", "20-40-60", True, "deal_winner", 20)
    played = deal("garde_sans", petit_au_bout="defense", poignees=("double",), miseres=("B",))
    outcome = deal_outcome(played, rules)
    assert outcome.value == 249
    assert outcome.scores == {"A": 727, "B": -189, "C": -269, "D": -269}
    # The same deal by the FFT (without the misère): V = 132 + 30 - 40 = 122.
    fft = deal("garde_sans", petit_au_bout="defense", poignees=("double",))
    assert score_deal(fft) == table(366, -122)


# --- every deal sums to zero


@st.composite
def deals_with_miseres(draw: st.DrawFn) -> TarotDeal[str]:
    played = draw(tarot_deals())
    count = draw(st.integers(0, len(played.seated)))
    announcers = draw(st.permutations(played.seated))[:count]
    return TarotDeal(
        played.seated,
        played.taker,
        played.contract,
        played.bouts,
        played.points,
        played.partner,
        played.petit_au_bout,
        played.poignees,
        played.chelem,
        tuple(announcers),
    )


@settings(deadline=None, max_examples=200)
@given(deals_with_miseres())
def test_every_deal_sums_to_zero_under_every_combination_of_rules(played):
    for rules in EVERY_RULES:
        if played.miseres and rules.misere == 0:
            assert coded(score_deal, played, rules).code == "misere_off"
            continue
        scores = score_deal(played, rules)
        assert sum(scores.values()) == 0
        assert list(scores) == list(played.seated)
