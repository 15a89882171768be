"""The 78 cards of a French Tarot deck, one by one, for the counter's tapping grid: each
with its query-string value (t1..t21, ex, h1..hk, ...), its kind and its face."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scorekeeper.scoring.cards import DECK_SIZE, KIND_FIELDS, KINDS, CardCount

#: The three bouts: the Petit (trump 1), the 21 and the Excuse.
BOUT_CARDS = frozenset({"t1", "t21", "ex"})
#: The honours of a suit: the letter of its value, its kind (which is also its face).
FACES = (("j", "jack"), ("n", "knight"), ("q", "queen"), ("k", "king"))


@dataclass(frozen=True)
class Card:
    value: str  # t1..t21, ex, h1..h10, hj, hn, hq, hk, ...
    kind: str  # one of scoring.cards.KINDS
    face: str  # "1".."21", or "excuse", "jack", "knight", "queen", "king"


@dataclass(frozen=True)
class Suit:
    key: str  # t (trumps and the Excuse), h, d, c, s
    symbol: str
    red: bool
    cards: tuple[Card, ...]


def _trumps() -> tuple[Card, ...]:
    cards = [
        Card(f"t{n}", "bout" if f"t{n}" in BOUT_CARDS else "low", str(n)) for n in range(1, 22)
    ]
    cards.append(Card("ex", "bout", "excuse"))
    return tuple(cards)


def _suit(key: str) -> tuple[Card, ...]:
    numbers = [Card(f"{key}{n}", "low", str(n)) for n in range(1, 11)]
    faces = [Card(f"{key}{letter}", kind, kind) for letter, kind in FACES]
    return tuple(numbers + faces)


DECK: tuple[Suit, ...] = (
    Suit("t", "", False, _trumps()),
    Suit("h", "♥", True, _suit("h")),
    Suit("d", "♦", True, _suit("d")),
    Suit("c", "♣", False, _suit("c")),
    Suit("s", "♠", False, _suit("s")),
)
CARD_KIND: dict[str, str] = {card.value: card.kind for suit in DECK for card in suit.cards}
assert len(CARD_KIND) == DECK_SIZE


def card_count_of(values: Iterable[str]) -> CardCount:
    """The card-by-card count of a set of cards (unknown values are left out)."""
    counts = dict.fromkeys(KINDS, 0)
    for value in set(values):
        if value in CARD_KIND:
            counts[CARD_KIND[value]] += 1
    return CardCount(**{KIND_FIELDS[kind]: n for kind, n in counts.items()})
