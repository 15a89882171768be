from __future__ import annotations

from decimal import Decimal

import pytest

from scorekeeper.scoring.cards import (
    CARD_VALUES,
    DECK_COUNTS,
    DECK_SIZE,
    DECK_TOTAL,
    CardCount,
    PairCount,
    other_pile,
    pile_points,
)
from scorekeeper.scoring.errors import ScoringError


def test_card_values_follow_the_table():
    assert {
        "bout": Decimal("4.5"),
        "king": Decimal("4.5"),
        "queen": Decimal("3.5"),
        "knight": Decimal("2.5"),
        "jack": Decimal("1.5"),
        "low": Decimal("0.5"),
    } == CARD_VALUES


def test_the_deck_has_78_cards_worth_91_points():
    assert sum(DECK_COUNTS.values()) == DECK_SIZE == 78
    assert sum(CARD_VALUES[kind] * n for kind, n in DECK_COUNTS.items()) == DECK_TOTAL == 91


def test_the_whole_deck_counted_card_by_card_is_91():
    deck = CardCount(bouts=3, kings=4, queens=4, knights=4, jacks=4, lows=59)
    assert deck.points() == Decimal("91.0")
    assert deck.cards() == 78


def test_an_empty_pile_is_worth_nothing():
    assert CardCount().points() == 0
    assert PairCount().points() == 0


def test_card_by_card_adds_each_value():
    pile = CardCount(bouts=2, kings=1, queens=1, knights=1, jacks=1, lows=3)
    assert pile.points() == Decimal("22.5")


def test_a_pile_with_an_odd_number_of_low_cards_ends_on_a_half_point():
    assert CardCount(kings=1, lows=2).points() == Decimal("5.5")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("bouts", 4),
        ("kings", 5),
        ("queens", 5),
        ("knights", 5),
        ("jacks", 5),
        ("lows", 60),
        ("kings", -1),
        ("lows", -3),
        ("queens", 1.5),
        ("jacks", "2"),
        ("bouts", True),
    ],
)
def test_a_card_count_the_deck_cannot_hold_names_the_kind(field, value):
    pile = CardCount(**{field: value})
    with pytest.raises(ScoringError) as caught:
        pile.points()
    assert caught.value.field == field


def test_the_pair_values_follow_the_table():
    assert PairCount(fives=1).points() == 5
    assert PairCount(fours=1).points() == 4
    assert PairCount(threes=1).points() == 3
    assert PairCount(twos=1).points() == 2
    assert PairCount(ones=1).points() == 1


@pytest.mark.parametrize(
    ("leftover", "points"),
    [
        ("low", Decimal("0.5")),
        ("king", Decimal("4.5")),
        ("bout", Decimal("4.5")),
        ("queen", Decimal("3.5")),
        ("knight", Decimal("2.5")),
        ("jack", Decimal("1.5")),
    ],
)
def test_a_single_card_left_over_counts_its_own_value(leftover, points):
    assert PairCount(ones=2, leftover=leftover).points() == 2 + points


def test_pairs_count_two_cards_each_plus_the_leftover():
    assert PairCount(fives=2, ones=3, leftover="low").cards() == 11


def test_the_whole_deck_counted_in_pairs_is_91():
    deck = PairCount(fives=7, fours=4, threes=4, twos=4, ones=20)
    assert deck.points() == 91
    assert deck.cards() == 78


@pytest.mark.parametrize(
    ("count", "field"),
    [
        (PairCount(fives=-1), "fives"),
        (PairCount(ones=-2), "ones"),
        (PairCount(twos=1.0), "twos"),
        (PairCount(fives=8), "fives"),
        (PairCount(fours=5), "fours"),
        (PairCount(threes=5), "threes"),
        (PairCount(twos=5), "twos"),
        (PairCount(ones=30), "ones"),
        (PairCount(fives=7, fours=4, threes=4, twos=4, ones=20, leftover="low"), "ones"),
        (PairCount(fives=7, leftover="king"), "leftover"),
        (PairCount(fives=7, leftover="bout"), "leftover"),
        (PairCount(fours=4, leftover="queen"), "leftover"),
        (PairCount(threes=4, leftover="knight"), "leftover"),
        (PairCount(twos=4, leftover="jack"), "leftover"),
        (PairCount(leftover="joker"), "leftover"),
        (PairCount(leftover=3), "leftover"),
    ],
)
def test_a_pair_count_the_deck_cannot_hold_names_the_field(count, field):
    with pytest.raises(ScoringError) as caught:
        count.points()
    assert caught.value.field == field


def test_six_fives_and_a_king_left_over_is_possible():
    assert PairCount(fives=6, leftover="king").points() == Decimal("34.5")


def test_pile_points_counts_either_way():
    assert pile_points(CardCount(kings=1, lows=1)) == pile_points(PairCount(fives=1)) == 5


def test_pile_points_refuses_what_is_not_a_count():
    with pytest.raises(ScoringError):
        pile_points({"kings": 1})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [(0, Decimal("91.0")), (45.5, Decimal("45.5")), ("91", Decimal("0.0")), (41, Decimal("50.0"))],
)
def test_the_other_pile_is_what_is_left_of_91(mine, theirs):
    assert other_pile(mine) == theirs


@pytest.mark.parametrize("mine", [-0.5, 91.5, 93, "lots", None, 40.2])
def test_the_other_pile_of_an_impossible_pile_is_an_error(mine):
    with pytest.raises(ScoringError) as caught:
        other_pile(mine)
    assert caught.value.field == "points"
