"""The counter page's form: the three ways of counting, and every check it makes."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.http import QueryDict
from django.utils import translation

from scorekeeper.scoring.cards import CardCount
from scorekeeper.scoring.deck import DECK, card_count_of
from scorekeeper.screens.counter.counting import plain_points, plural_count, signed
from scorekeeper.screens.counter.forms import CounterForm

# One pile, 33 cards, 47.5 points, holding 2 bouts (the Petit and the 21), three ways.
PAIRS = {"fives": "5", "fours": "2", "threes": "2", "twos": "1", "ones": "6", "leftover": "low"}
CARDS = {
    "mode": "cards",
    "bouts": "2",
    "kings": "3",
    "queens": "2",
    "knights": "2",
    "jacks": "1",
    "lows": "23",
}
TAPPED = (
    ["t1", "t21", "hk", "dk", "ck", "hq", "dq", "hn", "dn", "hj"]
    + [f"t{n}" for n in range(2, 21)]
    + ["h1", "h2", "h3", "h4"]
)


def form_for(data: dict[str, Any] | None = None, **fields: Any) -> CounterForm:
    query = QueryDict(mutable=True)
    for key, value in {**(data or {}), **fields}.items():
        if isinstance(value, list):
            query.setlist(key, value)
        else:
            query[key] = str(value)
    with translation.override("en"):
        form = CounterForm(query)
        form.is_valid()
    return form


def errors_of(form: CounterForm) -> dict[str, list[str]]:
    with translation.override("en"):
        return {name: [str(e) for e in errors] for name, errors in form.errors.items()}


# Counting.


def test_an_empty_form_is_a_pile_of_nothing_and_the_attack_has_0_points() -> None:
    form = form_for()
    assert form.is_valid()
    result = form.result
    assert result is not None
    assert result.attack_points == 0
    assert result.pile_cards == 0
    assert result.attack_bouts is None and result.target is None
    assert not result.complete


def test_counting_by_pairs_gives_the_pile_its_points_and_cards() -> None:
    result = form_for(PAIRS, attack_bouts=2).result
    assert result is not None
    assert result.pile_points == Decimal("47.5")
    assert result.pile_cards == 33
    assert result.attack_points == Decimal("47.5")
    assert (result.target, result.made, result.gap) == (41, True, 7)
    assert result.complete
    assert not result.bouts_found


def test_card_by_card_and_tapping_give_the_same_total_and_find_the_bouts() -> None:
    by_cards = form_for(CARDS).result
    by_tapping = form_for({"mode": "tap", "card": TAPPED}).result
    assert by_cards is not None and by_tapping is not None
    for result in (by_cards, by_tapping):
        assert result.pile_points == Decimal("47.5")
        assert result.pile_cards == 33
        assert result.attack_bouts == 2
        assert result.bouts_found
        assert (result.target, result.made, result.gap) == (41, True, 7)


def test_counting_the_defence_pile_gives_the_attack_91_minus_it() -> None:
    result = form_for(PAIRS, side="defense", attack_bouts=1).result
    assert result is not None
    assert result.pile_points == Decimal("47.5")
    assert result.attack_points == Decimal("43.5")
    assert result.defence_counted
    # 43.5 against 51: fails by 7.5, rounded up to 8.
    assert (result.target, result.made, result.gap) == (51, False, 8)


def test_tapping_the_defence_pile_gives_the_attack_the_other_bouts() -> None:
    result = form_for({"mode": "tap", "side": "defense", "card": ["t1", "ex", "h5"]}).result
    assert result is not None
    assert result.pile_points == Decimal("9.5")
    assert result.attack_points == Decimal("81.5")
    assert result.attack_bouts == 1


def test_half_a_point_is_rounded_for_the_side_that_wins() -> None:
    # 40.5 against 41 fails by 1; 41.5 against 41 is made by 1; 41 is made by 0.
    fails = form_for(fives=6, fours=2, twos=1, leftover="low", attack_bouts=2).result
    made = form_for(fives=6, fours=2, twos=1, ones=1, leftover="low", attack_bouts=2).result
    exact = form_for(fives=6, fours=2, twos=1, ones=1, attack_bouts=2).result
    assert fails is not None and made is not None and exact is not None
    assert (fails.attack_points, fails.made, fails.gap) == (Decimal("40.5"), False, 1)
    assert (made.attack_points, made.made, made.gap) == (Decimal("41.5"), True, 1)
    assert (exact.attack_points, exact.made, exact.gap) == (Decimal("41"), True, 0)


def test_the_tapped_cards_are_each_counted_once() -> None:
    result = form_for({"mode": "tap", "card": ["hk", "hk", "t1"]}).result
    assert result is not None
    assert result.pile_cards == 2
    assert result.pile_points == Decimal("9")


def test_only_the_chosen_way_of_counting_is_read() -> None:
    form = form_for(CARDS, fives="not a number", ones="999", card=["nope"])
    assert form.is_valid(), form.errors
    assert form.result is not None and form.result.pile_points == Decimal("47.5")


def test_a_bad_side_or_way_of_counting_falls_back_to_the_defaults() -> None:
    form = form_for(side="both", mode="guess", fives=1)
    assert form.is_valid()
    assert form.result is not None
    assert (form.result.side, form.result.mode) == ("attack", "pairs")


# The contract.


def test_with_a_contract_each_seating_gets_its_scores_from_the_scoring_rules() -> None:
    # rules.md example 1: 4 players, garde, 2 bouts, 49: the taker +198, the others -66.
    result = form_for(fives=7, fours=3, twos=1, attack_bouts=2, contract="garde").result
    assert result is not None
    assert result.attack_points == Decimal("49")
    assert result.multiplier == 2
    rows = {(row.players, bool(row.partner)): row for row in result.rows}
    assert (rows[4, False].taker, rows[4, False].defender) == ("+198", "−66")
    assert (rows[3, False].taker, rows[3, False].defender) == ("+132", "−66")
    assert (rows[5, True].taker, rows[5, True].partner, rows[5, True].defender) == (
        "+132",
        "+66",
        "−66",
    )
    assert len(result.rows) == 4


def test_a_failed_contract_at_three_players() -> None:
    # rules.md example 9: 3 players, garde, 2 bouts, 40.5: the taker -104, the others +52.
    result = form_for(fives=6, fours=2, twos=1, leftover="low", attack_bouts=2, contract="garde")
    assert result.result is not None
    three = result.result.rows[0]
    assert (three.players, three.taker, three.defender) == (3, "−104", "+52")


def test_without_a_contract_there_is_no_score_table() -> None:
    result = form_for(PAIRS, attack_bouts=2).result
    assert result is not None
    assert result.rows == () and result.contract is None


def test_an_unknown_contract_is_an_error_not_a_crash() -> None:
    form = form_for(PAIRS, attack_bouts=2, contract="grand_slam")
    assert "contract" in errors_of(form)


# The checks.


@pytest.mark.parametrize(
    ("field", "value", "limit"),
    [
        ("bouts", 4, 3),
        ("kings", 5, 4),
        ("queens", 5, 4),
        ("knights", 5, 4),
        ("jacks", 6, 4),
        ("lows", 60, 59),
    ],
)
def test_card_by_card_more_of_a_kind_than_the_deck_holds(
    field: str, value: int, limit: int
) -> None:
    form = form_for({"mode": "cards", field: value})
    assert not form.is_valid()
    assert errors_of(form)[field] == [f"Too many: the deck holds only {limit}."]
    assert form.result is None


@pytest.mark.parametrize(
    ("field", "value", "limit"),
    [("fives", 8, 7), ("fours", 5, 4), ("threes", 5, 4), ("twos", 5, 4)],
)
def test_by_pairs_more_piles_than_the_deck_can_make(field: str, value: int, limit: int) -> None:
    form = form_for({field: value})
    assert errors_of(form)[field] == [f"Too many: the deck can make only {limit}."]


@pytest.mark.parametrize(
    ("piles", "leftover"),
    [("fives", "king"), ("fives", "bout"), ("fours", "queen"), ("threes", "knight")],
)
def test_a_card_left_over_that_the_piles_already_used_up(piles: str, leftover: str) -> None:
    full = {"fives": 7, "fours": 4, "threes": 4, "twos": 4}[piles]
    form = form_for({piles: full, "leftover": leftover})
    assert errors_of(form)["leftover"] == [
        "Not possible: every card of this kind is already in a pile."
    ]


def test_by_pairs_more_low_cards_than_the_deck_holds() -> None:
    form = form_for(ones=30)
    assert errors_of(form)["ones"] == [
        "Too many piles: they use 60 low cards, and the deck holds only 59."
    ]


def test_more_cards_than_78() -> None:
    full = {"bouts": 3, "kings": 4, "queens": 4, "knights": 4, "jacks": 4}
    form = form_for({"mode": "cards", **full, "lows": 60})
    errors = errors_of(form)
    assert errors["__all__"] == ["Too many cards: 79, and the deck holds only 78."]
    assert errors["lows"] == ["Too many: the deck holds only 59."]
    by_pairs = form_for(ones=40)
    assert errors_of(by_pairs)["__all__"] == ["Too many cards: 80, and the deck holds only 78."]


def test_a_deck_card_count_is_fine() -> None:
    full = {"bouts": 3, "kings": 4, "queens": 4, "knights": 4, "jacks": 4, "lows": 59}
    form = form_for({"mode": "cards", **full})
    assert form.is_valid()
    assert form.result is not None and form.result.attack_points == 91


def test_more_honours_than_low_cards_suggests_counting_card_by_card() -> None:
    form = form_for(fives=2, leftover="honours")
    assert not form.is_valid()
    assert form.suggest_cards
    assert errors_of(form)["leftover"] == [
        "More honours than low cards: the pair method cannot pair them all. "
        "Count card by card instead."
    ]
    assert form.cards_mode_id() == "id_mode_1"
    assert form["mode"].subwidgets[1].data["value"] == "cards"


def test_more_honours_than_low_cards_still_reports_the_other_problems() -> None:
    form = form_for(fives=9, leftover="honours")
    assert set(errors_of(form)) == {"fives", "leftover"}


def test_card_by_card_bouts_the_pile_contradicts() -> None:
    form = form_for(CARDS, attack_bouts=1)
    assert errors_of(form)["attack_bouts"] == [
        "The pile says otherwise: it holds 2 bouts, so the attack holds 2."
    ]
    defence = form_for(CARDS, side="defense", attack_bouts=2)
    assert errors_of(defence)["attack_bouts"] == [
        "The pile says otherwise: it holds 2 bouts, so the attack holds 1."
    ]
    agreeing = form_for(CARDS, side="defense", attack_bouts=1)
    assert agreeing.is_valid()


def test_tapping_finds_the_bouts_whatever_was_chosen_before() -> None:
    form = form_for({"mode": "tap", "card": ["t21", "hk"], "attack_bouts": "3"})
    assert form.is_valid()
    assert form.result is not None and form.result.attack_bouts == 1


def test_by_pairs_bouts_the_piles_of_5_cannot_hold() -> None:
    form = form_for(fives=1, ones=10, attack_bouts=2)
    assert errors_of(form)["attack_bouts"] == [
        "The pile says otherwise: it would hold 2 bouts, but a bout is only ever in a pile "
        "of 5 or left over, and it has 1 of those."
    ]
    # Counting the defence with 0 bouts for the attack: the defence's pile holds all 3.
    defence = form_for(fives=2, ones=10, side="defense", attack_bouts=0)
    assert "attack_bouts" in errors_of(defence)


def test_by_pairs_a_bout_left_over_means_the_pile_holds_one() -> None:
    form = form_for(fives=3, leftover="bout", attack_bouts=0)
    assert errors_of(form)["attack_bouts"] == [
        "The pile says otherwise: a bout is left over in it, so it holds at least one."
    ]


def test_the_points_must_hold_the_bouts_on_each_side() -> None:
    whole_deck = {"fives": 7, "fours": 4, "threes": 4, "twos": 4, "ones": 20}
    attack_all = form_for(whole_deck, attack_bouts=0)
    assert errors_of(attack_all)["attack_bouts"] == [
        "The points say otherwise: the defence's 0 points cannot hold the other 3 bouts "
        "(4.5 points each)."
    ]
    defence_all = form_for(whole_deck, side="defense", attack_bouts=3)
    assert errors_of(defence_all)["attack_bouts"] == [
        "The points say otherwise: the attack's 0 points cannot hold 3 bouts (4.5 points each)."
    ]


def test_before_anything_is_counted_the_bouts_brought_along_raise_no_error() -> None:
    for data in (
        {"attack_bouts": "2"},
        {"attack_bouts": "2", "side": "defense"},
        {"attack_bouts": "2", "mode": "cards"},
        {"attack_bouts": "0", "side": "defense", "mode": "cards", "bouts": "0"},
    ):
        form = form_for(data)
        assert form.is_valid(), (data, form.errors)
        assert form.result is not None and form.result.target is None


def test_card_by_card_the_chosen_bouts_hold_until_the_piles_bouts_are_typed() -> None:
    without_bouts = {key: value for key, value in CARDS.items() if key != "bouts"}
    form = form_for(without_bouts, attack_bouts=2)
    assert form.is_valid()
    assert form.result is not None
    assert (form.result.attack_bouts, form.result.bouts_found) == (2, False)
    assert form.result.pile_points == Decimal("38.5")


def test_the_pile_total_is_kept_when_only_the_bouts_are_wrong() -> None:
    form = form_for(fives=1, ones=10, attack_bouts=2)
    assert form.result is None
    assert form.count_result is not None
    assert form.count_result.pile_points == Decimal("15")


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"fives": "abc"}, "fives"),
        ({"fives": "-1"}, "fives"),
        ({"fives": "1.5"}, "fives"),
        ({"fives": "1" * 5000}, "fives"),
        ({"mode": "cards", "kings": "1000"}, "kings"),
        ({"leftover": "joker"}, "leftover"),
        ({"mode": "tap", "card": ["t22"]}, "card"),
        ({"attack_bouts": "4"}, "attack_bouts"),
    ],
)
def test_nonsense_is_an_error_on_its_field(data: dict[str, Any], field: str) -> None:
    form = form_for(data)
    assert not form.is_valid()
    assert field in errors_of(form)
    assert form.first_error().startswith(str(form.fields[field].label))


# The pieces.


def test_the_tapping_grid_holds_the_78_cards_grouped_by_suit() -> None:
    assert [len(suit.cards) for suit in DECK] == [22, 14, 14, 14, 14]
    everything = card_count_of(card.value for suit in DECK for card in suit.cards)
    assert everything == CardCount(bouts=3, kings=4, queens=4, knights=4, jacks=4, lows=59)
    assert everything.points() == 91
    groups = form_for().card_groups()
    assert [card.value for card, _widget in groups[1][1]][-4:] == ["hj", "hn", "hq", "hk"]


def test_small_helpers() -> None:
    assert plain_points(Decimal("45.5")) == "45.5"
    assert plain_points(Decimal("40.0")) == "40"
    assert plain_points(Decimal("0.0")) == "0"
    assert signed(104) == "+104" and signed(-52) == "−52" and signed(0) == "0"
    assert plural_count(Decimal("1")) == 1 and plural_count(Decimal("1.5")) == 2
