"""The counter page's form: count a pile by pairs, card by card or by tapping the cards.

The form only reads and checks what was typed; every card total and score comes from
scorekeeper.scoring. Its own checks repeat the deck limits of the scoring package so that
each message can be translated and shown next to its field, all at once; the scoring
package's own errors stay the last word (any it raises still lands on the form).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.forms.boundfield import BoundField, BoundWidget
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from scorekeeper.models import Deal
from scorekeeper.scoring.cards import (
    CARD_VALUES,
    DECK_COUNTS,
    DECK_SIZE,
    KIND_FIELDS,
    KINDS,
    PAIR_HONOURS,
    PAIR_VALUES,
    CardCount,
    PairCount,
    other_pile,
    pile_points,
)
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.tarot import Contract, TarotDeal, deal_outcome

ATTACK, DEFENSE = "attack", "defense"
PAIRS, CARDS, TAP = "pairs", "cards", "tap"
SIDES = ((ATTACK, _("The attack's")), (DEFENSE, _("The defence's")))
MODES = ((PAIRS, _("By pairs")), (CARDS, _("Card by card")), (TAP, _("Tap the cards")))
CONTRACTS = (("", _("None")), *Deal.Contract.choices)
BOUT_CHOICES = tuple((str(n), str(n)) for n in range(4))
#: The leftover choice that means "honours remain and no low card to lay them on".
SEVERAL_HONOURS = "honours"
LEFTOVERS = (
    ("", _("None")),
    ("low", _("A low card")),
    ("bout", _("A bout")),
    ("king", _("A king")),
    ("queen", _("A queen")),
    ("knight", _("A knight")),
    ("jack", _("A jack")),
    (SEVERAL_HONOURS, _("Honours, no low card left")),
)

#: The fields of each way of counting (the other ways' fields are kept but not read).
PAIR_FIELDS = ("fives", "fours", "threes", "twos", "ones", "leftover")
CARD_FIELDS = tuple(KIND_FIELDS[kind] for kind in KINDS)
TAP_FIELDS = ("card",)
MODE_FIELDS = {PAIRS: PAIR_FIELDS, CARDS: CARD_FIELDS, TAP: TAP_FIELDS}
#: How many piles of each kind the deck can make, from the honours it holds.
PAIR_LIMITS = {
    name: sum(DECK_COUNTS[kind] for kind in kinds) for name, kinds in PAIR_HONOURS.items()
}


# The 78 cards, for the tapping grid: trumps 1-21 and the Excuse, then the four suits.
@dataclass(frozen=True)
class Card:
    value: str  # the query-string value: t1..t21, ex, h1..h10, hj, hn, hq, hk, ...
    kind: str  # a kind of scoring.cards.KINDS
    text: str | Promise  # what the tile shows
    name: str | Promise  # what a screen reader says


@dataclass(frozen=True)
class Suit:
    key: str
    name: str | Promise
    symbol: str
    red: bool
    cards: tuple[Card, ...]


BOUT_CARDS = {"t1": "bout", "t21": "bout", "ex": "bout"}
FACES = (
    ("j", "jack", pgettext_lazy("jack, on a card tile", "J"), _("Jack")),
    ("n", "knight", pgettext_lazy("knight (cavalier), on a card tile", "C"), _("Knight")),
    ("q", "queen", pgettext_lazy("queen, on a card tile", "Q"), _("Queen")),
    ("k", "king", pgettext_lazy("king, on a card tile", "K"), _("King")),
)


def _trumps() -> tuple[Card, ...]:
    cards = [Card(f"t{n}", BOUT_CARDS.get(f"t{n}", "low"), str(n), str(n)) for n in range(1, 22)]
    cards.append(Card("ex", "bout", "★", _("Excuse")))
    return tuple(cards)


def _suit(key: str) -> tuple[Card, ...]:
    numbers = [Card(f"{key}{n}", "low", str(n), str(n)) for n in range(1, 11)]
    faces = [Card(f"{key}{face}", kind, text, name) for face, kind, text, name in FACES]
    return tuple(numbers + faces)


DECK: tuple[Suit, ...] = (
    Suit("t", _("Trumps and the Excuse"), "", False, _trumps()),
    Suit("h", _("Hearts"), "♥", True, _suit("h")),
    Suit("d", _("Diamonds"), "♦", True, _suit("d")),
    Suit("c", _("Clubs"), "♣", False, _suit("c")),
    Suit("s", _("Spades"), "♠", False, _suit("s")),
)
CARD_KIND: dict[str, str] = {card.value: card.kind for suit in DECK for card in suit.cards}


def card_count_of(values: Iterable[str]) -> CardCount:
    """The card-by-card count of a set of tapped cards (unknown values are left out)."""
    counts = dict.fromkeys(KINDS, 0)
    for value in set(values):
        if value in CARD_KIND:
            counts[CARD_KIND[value]] += 1
    return CardCount(**{KIND_FIELDS[kind]: n for kind, n in counts.items()})


# Messages.
TOO_MANY_CARDS = _("Too many: the deck holds only %(limit)s.")
TOO_MANY_PILES = _("Too many: the deck can make only %(limit)s.")
LEFTOVER_USED_UP = _("Not possible: every card of this kind is already in a pile.")
PAIR_LOWS = ngettext_lazy(
    "Too many piles: they use %(n)s low card, and the deck holds only %(limit)s.",
    "Too many piles: they use %(n)s low cards, and the deck holds only %(limit)s.",
    "n",
)
TOO_MANY_IN_PILE = _("Too many cards: %(n)s, and the deck holds only %(limit)s.")
PAIRS_CANNOT = _(
    "More honours than low cards: the pair method cannot pair them all. Count card by card instead."
)
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

    @property
    def attack_points_url(self) -> str:
        return plain_points(self.attack_points)


def _count_field(label: str | Promise, help_text: str | Promise = "") -> forms.IntegerField:
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


class CounterForm(forms.Form):
    """Count one side's pile; every field is optional, an empty form is a pile of 0."""

    side = forms.ChoiceField(
        label=_("Whose pile do you hold?"), choices=SIDES, widget=forms.RadioSelect
    )
    mode = forms.ChoiceField(label=_("How do you count?"), choices=MODES, widget=forms.RadioSelect)

    fives = _count_field(_("Piles of 5"), _("A bout or a king on a low card"))
    fours = _count_field(_("Piles of 4"), _("A queen on a low card"))
    threes = _count_field(_("Piles of 3"), _("A knight on a low card"))
    twos = _count_field(_("Piles of 2"), _("A jack on a low card"))
    ones = _count_field(_("Piles of 1"), _("Two low cards"))
    leftover = forms.ChoiceField(
        label=_("A single card left over"), choices=LEFTOVERS, required=False
    )

    bouts = _count_field(_("Bouts"), _("The Petit, the 21, the Excuse"))
    kings = _count_field(_("Kings"))
    queens = _count_field(_("Queens"))
    knights = _count_field(_("Knights"))
    jacks = _count_field(_("Jacks"))
    lows = _count_field(_("Low cards"), _("Trumps 2 to 20, suit cards 1 to 10"))

    card = forms.MultipleChoiceField(
        label=_("The cards in the pile"),
        required=False,
        choices=[(card.value, card.name) for suit in DECK for card in suit.cards],
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": _("%(value)s is not a card of the deck.")},
    )

    attack_bouts = forms.ChoiceField(
        label=_("Bouts held by the attack"),
        help_text=_("Counting card by card, leave it unset: the pile tells."),
        choices=BOUT_CHOICES,
        required=False,
        widget=forms.RadioSelect,
    )
    contract = forms.ChoiceField(
        label=_("Contract (optional)"), choices=CONTRACTS, required=False, widget=forms.RadioSelect
    )

    def __init__(self, data: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        data = data.copy() if data is not None else {}  # type: ignore[union-attr]
        # The side and the way of counting always have a value: a bad one means the default.
        if data.get("side") not in {ATTACK, DEFENSE}:
            data["side"] = ATTACK
        if data.get("mode") not in MODE_FIELDS:
            data["mode"] = PAIRS
        super().__init__(data, **kwargs)
        self.active_mode: str = str(data["mode"])
        self.count_result: CountResult | None = None
        self.suggest_cards = False
        self._pile_is_empty = False
        for name, field in self.fields.items():
            field.widget.attrs.setdefault("aria-describedby", f"id_{name}-errors")

    # Every way of counting keeps its fields in the page; only the chosen one is read.
    def inactive_fields(self) -> tuple[str, ...]:
        return tuple(
            name
            for mode, names in MODE_FIELDS.items()
            if mode != self.active_mode
            for name in names
        )

    def full_clean(self) -> None:
        super().full_clean()
        if not hasattr(self, "_errors") or self._errors is None:
            return
        for name in self.inactive_fields():
            self._errors.pop(name, None)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        active = MODE_FIELDS[self.active_mode]
        if any(name in self.errors for name in active):
            return cleaned
        side = cleaned.get("side") or ATTACK
        count = self._count(cleaned)
        if count is None:
            return cleaned
        try:
            pile = pile_points(count)
            attack = pile if side == ATTACK else other_pile(pile)
        except ScoringError as error:
            self._scoring_error(error)
            return cleaned
        result = CountResult(
            side=side,
            mode=self.active_mode,
            pile_points=pile,
            pile_cards=count.cards(),
            attack_points=attack,
        )
        self.count_result = result
        # Nothing counted yet: the bouts chosen (or brought from a deal form) wait for the pile.
        self._pile_is_empty = count.cards() == 0
        bouts, found = self._attack_bouts(cleaned, side, count)
        if bouts is None:
            return cleaned
        result = replace(result, attack_bouts=bouts, bouts_found=found)
        self.count_result = result
        contract = cleaned.get("contract") or None
        try:
            self.count_result = self._outcome(result, contract)
        except ScoringError as error:
            self._bouts_error(error, result, bouts)
        return cleaned

    def _count(self, cleaned: Mapping[str, Any]) -> CardCount | PairCount | None:
        """The pile as the scoring package counts it, or None after adding the errors."""
        if self.active_mode == PAIRS:
            return self._pair_count(cleaned)
        if self.active_mode == CARDS:
            count = CardCount(**{name: cleaned.get(name) or 0 for name in CARD_FIELDS})
            for kind in KINDS:
                name = KIND_FIELDS[kind]
                if getattr(count, name) > DECK_COUNTS[kind]:
                    self.add_error(name, TOO_MANY_CARDS % {"limit": DECK_COUNTS[kind]})
        else:
            count = card_count_of(cleaned.get("card") or ())
        if count.cards() > DECK_SIZE:
            self.add_error(None, TOO_MANY_IN_PILE % {"n": count.cards(), "limit": DECK_SIZE})
        return None if self._count_has_errors() else count

    def _count_has_errors(self) -> bool:
        names = (*MODE_FIELDS[self.active_mode], NON_FIELD_ERRORS)
        return any(name in self.errors for name in names)

    def _pair_count(self, cleaned: Mapping[str, Any]) -> PairCount | None:
        leftover = cleaned.get("leftover") or None
        if leftover == SEVERAL_HONOURS:
            self.suggest_cards = True
            self.add_error("leftover", PAIRS_CANNOT)
            leftover = None
        count = PairCount(
            **{name: cleaned.get(name) or 0 for name in PAIR_FIELDS if name != "leftover"},
            leftover=leftover,
        )
        for name, limit in PAIR_LIMITS.items():
            held = getattr(count, name)
            if held > limit:
                self.add_error(name, TOO_MANY_PILES % {"limit": limit})
            elif leftover in PAIR_HONOURS[name] and held + 1 > limit:
                self.add_error("leftover", LEFTOVER_USED_UP)
        lows = count.low_cards()
        if lows > DECK_COUNTS["low"] and "ones" not in self.errors:
            self.add_error("ones", PAIR_LOWS % {"n": lows, "limit": DECK_COUNTS["low"]})
        if count.cards() > DECK_SIZE:
            self.add_error(None, TOO_MANY_IN_PILE % {"n": count.cards(), "limit": DECK_SIZE})
        return None if self._count_has_errors() else count

    def _attack_bouts(
        self, cleaned: Mapping[str, Any], side: str, count: CardCount | PairCount
    ) -> tuple[int | None, bool]:
        """The attack's bouts and whether the pile told them; adds the errors it finds."""
        given_text = cleaned.get("attack_bouts")
        given = int(given_text) if given_text not in (None, "") else None
        if isinstance(count, CardCount):
            found = count.bouts if side == ATTACK else 3 - count.bouts
            if self.active_mode == CARDS and given is not None:
                if cleaned.get("bouts") is None:
                    return given, False  # the pile's bouts are not counted yet
                if given != found:
                    self._bouts_problem(BOUTS_BY_PILE % {"pile": count.bouts, "attack": found})
                    return None, False
            return found, True
        if given is None:
            return None, False
        in_pile = given if side == ATTACK else 3 - given
        room = count.fives + (1 if count.leftover == "bout" else 0)
        if in_pile > room:
            self._bouts_problem(BOUTS_ROOM % {"pile": in_pile, "room": room})
            return None, False
        if count.leftover == "bout" and in_pile == 0:
            self._bouts_problem(BOUT_LEFT_OVER)
            return None, False
        return given, False

    def _outcome(self, result: CountResult, contract: str | None) -> CountResult:
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

    def _bouts_error(self, error: ScoringError, result: CountResult, bouts: int) -> None:
        if error.field != "points":
            self._scoring_error(error)
            return
        # The scoring package found the points cannot hold the bouts on one side.
        if result.attack_points < CARD_VALUES["bout"] * bouts:
            message = ATTACK_POINTS_TOO_FEW % {
                "points": _show(result.attack_points),
                "bouts": bouts,
            }
        else:
            message = DEFENCE_POINTS_TOO_FEW % {
                "points": _show(other_pile(result.attack_points)),
                "bouts": 3 - bouts,
            }
        self._bouts_problem(message)

    def _bouts_problem(self, message: str) -> None:
        """The pile and the attack's bouts disagree (not an error before anything is counted)."""
        if not self._pile_is_empty:
            self.add_error("attack_bouts", message)

    def _scoring_error(self, error: ScoringError) -> None:
        """A check only the scoring package made: shown on its field, or on the form."""
        field = error.field if error.field in self.fields else None
        if field in self.inactive_fields():
            field = None
        self.add_error(field, NOT_POSSIBLE % {"detail": error.message})

    # What the template needs.
    @property
    def result(self) -> CountResult | None:
        """The count, when it is valid (possibly without the bouts, so without a target)."""
        if not self.is_valid():
            return None
        return self.count_result

    def first_error(self) -> str:
        """The first problem, for the summary bar: "Kings: Too many…"."""
        for name, errors in self.errors.items():
            if not errors:
                continue
            if name == NON_FIELD_ERRORS:
                return str(errors[0])
            return f"{self.fields[name].label}: {errors[0]}"
        return ""

    def cards_mode_id(self) -> str:
        """The id of the "card by card" radio button, for the pair method's suggestion."""
        for widget in self["mode"]:
            if widget.data["value"] == CARDS:
                return str(widget.id_for_label)
        return ""

    def card_groups(self) -> list[tuple[Suit, list[tuple[Card, BoundWidget]]]]:
        """The tapping grid: each suit with its cards and their checkboxes."""
        widgets = {widget.data["value"]: widget for widget in self["card"]}
        return [(suit, [(card, widgets[card.value]) for card in suit.cards]) for suit in DECK]

    def pair_rows(self) -> list[BoundField]:
        return [self[name] for name in PAIR_FIELDS if name != "leftover"]

    def card_rows(self) -> list[BoundField]:
        return [self[name] for name in CARD_FIELDS]


def _show(points: Decimal) -> str:
    """Points in a message, in the page's language (45,5 in French)."""
    whole = points == points.to_integral_value()
    return number_format(points, 0 if whole else 1)


def pair_table() -> list[tuple[str | Promise, int]]:
    """The pair method's table, for the explanation on the page."""
    return [
        (_("A bout or a king + a low card"), PAIR_VALUES["fives"]),
        (_("A queen + a low card"), PAIR_VALUES["fours"]),
        (_("A knight + a low card"), PAIR_VALUES["threes"]),
        (_("A jack + a low card"), PAIR_VALUES["twos"]),
        (_("Two low cards"), PAIR_VALUES["ones"]),
    ]
