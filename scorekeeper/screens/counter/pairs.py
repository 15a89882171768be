"""Counting a pile by pairs (``scoring.cards.PairCount``): the piles of 5, 4, 3, 2 and 1
and the card left over, checked against the deck."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.forms.boundfield import BoundField
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from scorekeeper.scoring.cards import DECK_COUNTS, DECK_SIZE, PAIR_HONOURS, PAIR_VALUES, PairCount
from scorekeeper.screens.counter.counting import PAIR_FIELDS, TOO_MANY_IN_PILE

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

#: How many piles of each kind the deck can make, from the honours it holds.
PAIR_LIMITS = {
    name: sum(DECK_COUNTS[kind] for kind in kinds) for name, kinds in PAIR_HONOURS.items()
}

TOO_MANY_PILES = _("Too many: the deck can make only %(limit)s.")
LEFTOVER_USED_UP = _("Not possible: every card of this kind is already in a pile.")
PAIR_LOWS = ngettext_lazy(
    "Too many piles: they use %(n)s low card, and the deck holds only %(limit)s.",
    "Too many piles: they use %(n)s low cards, and the deck holds only %(limit)s.",
    "n",
)
PAIRS_CANNOT = _(
    "More honours than low cards: the pair method cannot pair them all. Count card by card instead."
)


class PairCounting(forms.Form):
    """The pair method's part of the counter form (its fields are declared on the form)."""

    suggest_cards: bool

    def _count_has_errors(self) -> bool:
        raise NotImplementedError

    def pair_count(self, cleaned: Mapping[str, Any]) -> PairCount | None:
        """The piles as the scoring package counts them, or None after adding the errors."""
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

    def pair_picks(self) -> list[tuple[BoundField, list[int]]]:
        """Each count of piles with the counts it can take, tapped in one go (but the piles
        of 1, too many to offer: typed or stepped)."""
        return [
            (self[name], list(range(PAIR_LIMITS[name] + 1)) if name in PAIR_LIMITS else [])
            for name in PAIR_FIELDS
            if name != "leftover"
        ]


def pair_table() -> list[tuple[str | Promise, int]]:
    """The pair method's table, for the explanation on the page."""
    return [
        (_("A bout or a king + a low card"), PAIR_VALUES["fives"]),
        (_("A queen + a low card"), PAIR_VALUES["fours"]),
        (_("A knight + a low card"), PAIR_VALUES["threes"]),
        (_("A jack + a low card"), PAIR_VALUES["twos"]),
        (_("Two low cards"), PAIR_VALUES["ones"]),
    ]
