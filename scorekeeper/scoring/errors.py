"""The one error the scoring package raises, and the card-points helper."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from decimal import Decimal, InvalidOperation

HALF = Decimal("0.5")
ONE_PLACE = Decimal("0.1")
LARGEST = Decimal(10**9)


class ScoringError(ValueError):
    """An invalid input: names the field, and the deal (counted from 1) when known. ``code``
    and ``params`` let the edge of the app say it in the reader's language (:meth:`coded`);
    ``message`` stays the English text.
    """

    def __init__(
        self,
        field: str,
        message: str,
        deal: int | None = None,
        *,
        code: str = "",
        params: dict[str, object] | None = None,
    ) -> None:
        self.field = field
        self.message = message
        self.deal = deal
        self.code = code
        self.params: dict[str, object] = dict(params or {})
        # Exception's own pickling calls the class with these args, then restores the rest.
        super().__init__(field, message, deal)

    @classmethod
    def coded(
        cls, field: str, code: str, template: str, deal: int | None = None, **params: object
    ) -> ScoringError:
        """An error whose English message is ``template % params`` (``%(name)s`` style)."""
        return cls(field, template % params, deal, code=code, params=params)

    def __str__(self) -> str:
        text = f"{self.field}: {self.message}"
        return text if self.deal is None else f"deal {self.deal}: {text}"

    def __repr__(self) -> str:
        return f"ScoringError(field={self.field!r}, message={self.message!r}, deal={self.deal!r})"

    def with_deal(self, deal: int) -> ScoringError:
        """A copy of this error that names the deal."""
        return type(self)(self.field, self.message, deal, code=self.code, params=self.params)


def to_points(value: object, field: str = "points") -> Decimal:
    """Card points as a Decimal with one decimal place, in steps of half a point."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise _not_a_number(field, value)
    if isinstance(value, str):
        text = value.strip().replace(",", ".")
        try:
            number = Decimal(text)
        except InvalidOperation:
            raise _not_a_number(field, value) from None
    else:
        number = Decimal(value)
    if not number.is_finite():
        raise _not_a_number(field, value)
    if abs(number) > LARGEST:
        raise ScoringError.coded(field, "too_large", "%(value)s is far too large", value=value)
    if number % HALF != 0:
        raise ScoringError.coded(
            field, "not_half_point", "%(value)s is not a whole or half point", value=value
        )
    return number.quantize(ONE_PLACE) + 0  # + 0 turns -0.0 into 0.0


def _not_a_number(field: str, value: object) -> ScoringError:
    return ScoringError.coded(field, "not_a_number", "%(value)s is not a number", value=repr(value))


def show_points(points: Decimal) -> str:
    """Card points for messages: 45, 45.5."""
    return str(points.to_integral_value()) if points == points.to_integral_value() else str(points)


def distinct_players(value: object, field: str) -> tuple[Hashable, ...]:
    """A list of players (names or ids), each once; a ScoringError on ``field`` otherwise."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise ScoringError.coded(
            field, "not_player_list", "%(value)s is not a list of players", value=repr(value)
        )
    players = tuple(value)
    seen: set[Hashable] = set()
    for player in players:
        try:
            twice = player in seen
        except TypeError:
            raise ScoringError.coded(
                field, "cannot_be_player", "%(value)s cannot be a player", value=repr(player)
            ) from None
        if twice:
            raise ScoringError.coded(field, "twice", "%(name)s appears twice", name=player)
        seen.add(player)
    return players
