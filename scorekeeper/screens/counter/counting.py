"""The counter's shared parts: the ways of counting, the result, the contract's values. The
forms check the deck's limits themselves so that each message lands next to its field;
every total comes from ``scoring``, whose errors stay the last word.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from django import forms
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scorekeeper.models import Deal
from scorekeeper.scoring.cards import KIND_FIELDS, KINDS
from scorekeeper.scoring.tarot import Contract, TarotDeal, deal_outcome

ATTACK, DEFENSE = "attack", "defense"
PAIRS, CARDS, TAP = "pairs", "cards", "tap"
SIDES = ((ATTACK, _("The attack's")), (DEFENSE, _("The defence's")))
MODES = ((PAIRS, _("By pairs")), (CARDS, _("Card by card")), (TAP, _("Tap the cards")))
CONTRACTS = (("", _("None")), *Deal.Contract.choices)
BOUT_CHOICES = tuple((str(n), str(n)) for n in range(4))

#: The fields of each way of counting (the other ways' fields are kept but not read).
PAIR_FIELDS = ("fives", "fours", "threes", "twos", "ones", "leftover")
CARD_FIELDS = tuple(KIND_FIELDS[kind] for kind in KINDS)
TAP_FIELDS = ("card",)
MODE_FIELDS = {PAIRS: PAIR_FIELDS, CARDS: CARD_FIELDS, TAP: TAP_FIELDS}


# Messages.
TOO_MANY_IN_PILE = _("Too many cards: %(n)s, and the deck holds only %(limit)s.")
BOUTS_BY_PILE = _(
    "The pile says otherwise: it holds %(pile)s bouts, so the attack holds %(attack)s."
)
BOUTS_ROOM = _(
    "The pile says otherwise: it would hold %(pile)s bouts, but a bout is only ever in a "
    "pile of 5 or left over, and it has %(room)s of those."
)
BOUT_LEFT_OVER = _("The pile says otherwise: a bout is left over in it, so it holds at least one.")
ATTACK_POINTS_TOO_FEW = _(
    "The points say otherwise: the attack's %(points)s points cannot hold %(bouts)s bouts "
    "(4.5 points each)."
)
DEFENCE_POINTS_TOO_FEW = _(
    "The points say otherwise: the defence's %(points)s points cannot hold the other "
    "%(bouts)s bouts (4.5 points each)."
)
NOT_POSSIBLE = _("This count is not possible (%(detail)s).")

SEATINGS: tuple[tuple[int, bool, str | Promise], ...] = (
    (3, False, ""),
    (4, False, ""),
    (5, True, _("with a partner")),
    (5, False, _("taker alone")),
)


def signed(number: int) -> str:
    """A score with its sign: +104, −52, 0."""
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"−{-number}"
    return "0"


def plural_count(points: Decimal) -> int:
    """The number to choose a plural form by: the whole number, or 2 for a half point."""
    return int(points) if points == points.to_integral_value() else 2


def plain_points(points: Decimal) -> str:
    """Points for a URL, whatever the language: 45.5, 45, 0."""
    text = format(points.normalize(), "f")
    return "0" if text in {"-0", ""} else text


@dataclass(frozen=True)
class ContractRow:
    """What one seating of the table scores for the deal."""

    players: int
    note: str | Promise
    taker: str
    partner: str | None
    defender: str


@dataclass(frozen=True)
class CountResult:
    """Everything the page shows about a count."""

    side: str
    mode: str
    pile_points: Decimal
    pile_cards: int
    attack_points: Decimal
    attack_bouts: int | None = None
    bouts_found: bool = False  # found from the pile itself (card by card, tapping)
    target: int | None = None
    made: bool | None = None
    gap: int | None = None
    contract: str | Promise | None = None
    multiplier: int | None = None
    rows: tuple[ContractRow, ...] = ()

    @property
    def complete(self) -> bool:
        """The points and the bouts are both known: a deal form can use them."""
        return self.attack_bouts is not None and self.target is not None

    @property
    def attack_plural(self) -> int:
        return plural_count(self.attack_points)

    @property
    def pile_plural(self) -> int:
        return plural_count(self.pile_points)

    @property
    def defence_counted(self) -> bool:
        return self.side == DEFENSE


def count_field(label: str | Promise, help_text: str | Promise = "") -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        help_text=help_text,
        required=False,
        min_value=0,
        max_value=999,
        error_messages={
            "invalid": _("Enter a whole number."),
            "min_value": _("Enter 0 or more."),
            "max_value": _("Far more than the deck holds."),
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": "0", "step": "1"}),
    )


def show_points(points: Decimal) -> str:
    """Points in a message, in the page's language (45,5 in French)."""
    whole = points == points.to_integral_value()
    return number_format(points, 0 if whole else 1)


def contract_outcome(result: CountResult, contract: str | None) -> CountResult:
    """The target, the result and the contract's values, from the scoring package."""
    bouts = result.attack_bouts
    assert bouts is not None
    base = deal_outcome(
        TarotDeal(
            seated=(0, 1, 2, 3),
            taker=0,
            contract=contract or Contract.PETITE,
            bouts=bouts,
            points=result.attack_points,
        )
    )
    rows: list[ContractRow] = []
    if contract:
        for seated, called, label in SEATINGS:
            players = tuple(range(seated))
            partner = (1 if called else 0) if seated == 5 else None
            outcome = deal_outcome(
                TarotDeal(
                    seated=players,
                    taker=0,
                    contract=contract,
                    bouts=bouts,
                    points=result.attack_points,
                    partner=partner,
                )
            )
            rows.append(
                ContractRow(
                    players=seated,
                    note=label,
                    taker=signed(outcome.scores[0]),
                    partner=signed(outcome.scores[1]) if called else None,
                    defender=signed(outcome.scores[seated - 1]),
                )
            )
    labels = dict(CONTRACTS)
    return replace(
        result,
        target=base.target,
        made=base.made,
        gap=base.gap,
        contract=labels[contract] if contract else None,
        multiplier=base.multiplier if contract else None,
        rows=tuple(rows),
    )
