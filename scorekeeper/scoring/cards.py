"""Card values, and counting a pile card by card or by the pair method."""

from __future__ import annotations

from dataclasses import dataclass, fields
from decimal import Decimal

from scorekeeper.scoring.errors import ONE_PLACE, ScoringError, show_points, to_points

KINDS = ("bout", "king", "queen", "knight", "jack", "low")
CARD_VALUES: dict[str, Decimal] = {
    "bout": Decimal("4.5"),
    "king": Decimal("4.5"),
    "queen": Decimal("3.5"),
    "knight": Decimal("2.5"),
    "jack": Decimal("1.5"),
    "low": Decimal("0.5"),
}
DECK_COUNTS: dict[str, int] = {"bout": 3, "king": 4, "queen": 4, "knight": 4, "jack": 4, "low": 59}
DECK_TOTAL = Decimal("91")
DECK_SIZE = 78

#: The CardCount field holding each kind of card.
KIND_FIELDS = {
    "bout": "bouts",
    "king": "kings",
    "queen": "queens",
    "knight": "knights",
    "jack": "jacks",
    "low": "lows",
}
#: What each pile of two counts: an honour (or a low card) laid on a low card.
PAIR_VALUES: dict[str, int] = {"fives": 5, "fours": 4, "threes": 3, "twos": 2, "ones": 1}
#: The honours each kind of pair can hold, and how many of them the deck has.
PAIR_HONOURS: dict[str, tuple[str, ...]] = {
    "fives": ("bout", "king"),
    "fours": ("queen",),
    "threes": ("knight",),
    "twos": ("jack",),
}


def _check_whole(field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError(field, f"{value!r} is not a whole number")
    if value < 0:
        raise ScoringError(field, f"{value} is negative")
    return value


@dataclass(frozen=True)
class CardCount:
    """A pile counted card by card: how many of each kind."""

    bouts: int = 0
    kings: int = 0
    queens: int = 0
    knights: int = 0
    jacks: int = 0
    lows: int = 0

    def validate(self) -> None:
        """Raise ScoringError unless the deck could hold this pile."""
        for kind in KINDS:
            field = KIND_FIELDS[kind]
            number = _check_whole(field, getattr(self, field))
            if number > DECK_COUNTS[kind]:
                raise ScoringError(
                    field, f"{number} {field}, but the deck holds only {DECK_COUNTS[kind]}"
                )
        if self.cards() > DECK_SIZE:
            raise ScoringError("lows", f"{self.cards()} cards, but the deck holds only {DECK_SIZE}")

    def cards(self) -> int:
        """How many cards are in the pile."""
        return sum(_check_whole(f.name, getattr(self, f.name)) for f in fields(self))

    def points(self) -> Decimal:
        """The pile's card points."""
        self.validate()
        total = sum(
            (CARD_VALUES[kind] * getattr(self, KIND_FIELDS[kind]) for kind in KINDS), Decimal(0)
        )
        return total.quantize(ONE_PLACE)


@dataclass(frozen=True)
class PairCount:
    """A pile counted by the pair method, with at most one card left over."""

    fives: int = 0
    fours: int = 0
    threes: int = 0
    twos: int = 0
    ones: int = 0
    leftover: str | None = None

    def validate(self) -> None:
        """Raise ScoringError unless the deck could hold these piles."""
        for name in PAIR_VALUES:
            _check_whole(name, getattr(self, name))
        if self.leftover is not None and self.leftover not in KINDS:
            raise ScoringError(
                "leftover", f"{self.leftover!r} is not a kind of card (one of {', '.join(KINDS)})"
            )
        for name, kinds in PAIR_HONOURS.items():
            in_deck = sum(DECK_COUNTS[kind] for kind in kinds)
            held = getattr(self, name)
            words = " and ".join(KIND_FIELDS[kind] for kind in kinds)
            if held > in_deck:
                raise ScoringError(
                    name, f"{held} {name}, but the deck holds only {in_deck} {words} to make them"
                )
            if self.leftover in kinds and held + 1 > in_deck:
                raise ScoringError(
                    "leftover",
                    f"a {self.leftover} left over besides {held} {name}: "
                    f"the deck holds only {in_deck} {words}",
                )
        lows = self.low_cards()
        if lows > DECK_COUNTS["low"]:
            raise ScoringError(
                "ones",
                f"these piles use {lows} low cards, but the deck holds only {DECK_COUNTS['low']}",
            )
        if self.cards() > DECK_SIZE:
            raise ScoringError("ones", f"{self.cards()} cards, but the deck holds only {DECK_SIZE}")

    def low_cards(self) -> int:
        """How many low cards the piles (and the leftover) use."""
        return (
            self.fives
            + self.fours
            + self.threes
            + self.twos
            + 2 * self.ones
            + (1 if self.leftover == "low" else 0)
        )

    def cards(self) -> int:
        """How many cards are in the pile."""
        pairs = sum(_check_whole(name, getattr(self, name)) for name in PAIR_VALUES)
        return 2 * pairs + (0 if self.leftover is None else 1)

    def points(self) -> Decimal:
        """The pile's card points."""
        self.validate()
        total = Decimal(sum(value * getattr(self, name) for name, value in PAIR_VALUES.items()))
        if self.leftover is not None:
            total += CARD_VALUES[self.leftover]
        return total.quantize(ONE_PLACE)


def pile_points(count: CardCount | PairCount) -> Decimal:
    """The card points of a pile counted either way."""
    if not isinstance(count, CardCount | PairCount):
        raise ScoringError("pile", f"{count!r} is not a card count")
    return count.points()


def other_pile(points: object) -> Decimal:
    """The other side's points: the two piles make 91."""
    mine = to_points(points)
    if mine > DECK_TOTAL:
        raise ScoringError("points", f"{show_points(mine)} is more than 91")
    if mine < 0:
        raise ScoringError("points", f"{show_points(mine)} is less than 0")
    return (DECK_TOTAL - mine).quantize(ONE_PLACE)
