"""The one error the scoring package raises, and the card-points helper."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from decimal import Decimal, InvalidOperation

HALF = Decimal("0.5")
ONE_PLACE = Decimal("0.1")
LARGEST = Decimal(10**9)


class ScoringError(ValueError):
    """An invalid input: names the field, and the deal (counted from 1) when known."""

    def __init__(self, field: str, message: str, deal: int | None = None) -> None:
        self.field = field
        self.message = message
        self.deal = deal
        super().__init__(str(self))

    def __str__(self) -> str:
        text = f"{self.field}: {self.message}"
        return text if self.deal is None else f"deal {self.deal}: {text}"

    def __repr__(self) -> str:
        return f"ScoringError(field={self.field!r}, message={self.message!r}, deal={self.deal!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.field, self.message, self.deal))

    def with_deal(self, deal: int) -> ScoringError:
        """A copy of this error that names the deal."""
        return type(self)(self.field, self.message, deal)


def to_points(value: object, field: str = "points") -> Decimal:
    """Card points as a Decimal with one decimal place, in steps of half a point."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise ScoringError(field, f"{value!r} is not a number")
    if isinstance(value, str):
        text = value.strip().replace(",", ".")
        try:
            number = Decimal(text)
        except InvalidOperation:
            raise ScoringError(field, f"{value!r} is not a number") from None
    else:
        number = Decimal(value)
    if not number.is_finite():
        raise ScoringError(field, f"{value!r} is not a number")
    if abs(number) > LARGEST:
        raise ScoringError(field, f"{value} is far too large")
    if number % HALF != 0:
        raise ScoringError(field, f"{value} is not a whole or half point")
    return number.quantize(ONE_PLACE) + 0  # + 0 turns -0.0 into 0.0


def show_points(points: Decimal) -> str:
    """Card points for messages: 45, 45.5."""
    return str(points.to_integral_value()) if points == points.to_integral_value() else str(points)


def distinct_players(value: object, field: str) -> tuple[Hashable, ...]:
    """A list of players (names or ids), each once; a ScoringError on ``field`` otherwise."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise ScoringError(field, f"{value!r} is not a list of players")
    players = tuple(value)
    seen: set[Hashable] = set()
    for player in players:
        try:
            twice = player in seen
        except TypeError:
            raise ScoringError(field, f"{player!r} cannot be a player") from None
        if twice:
            raise ScoringError(field, f"{player} appears twice")
        seen.add(player)
    return players
