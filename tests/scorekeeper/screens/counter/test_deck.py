"""The 78 cards of the deck, one by one (scoring.deck), as the tapping grid lays them out."""

from __future__ import annotations

from scorekeeper.scoring.cards import DECK_COUNTS, KIND_FIELDS
from scorekeeper.scoring.deck import DECK, card_count_of


def test_the_deck_holds_78_cards_of_the_kinds_the_scoring_counts() -> None:
    count = card_count_of(card.value for suit in DECK for card in suit.cards)
    assert count.cards() == 78
    assert {kind: getattr(count, name) for kind, name in KIND_FIELDS.items()} == DECK_COUNTS


def test_the_three_bouts_are_the_petit_the_21_and_the_excuse() -> None:
    bouts = [card.value for suit in DECK for card in suit.cards if card.kind == "bout"]
    assert bouts == ["t1", "t21", "ex"]


def test_a_card_counted_twice_or_unknown_is_left_out() -> None:
    assert card_count_of(["hk", "hk", "zz"]).cards() == 1
