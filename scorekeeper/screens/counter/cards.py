"""Counting a pile card by card or by tapping each card of ``scoring.deck`` on a grid: the
cards' words, and the counts checked against the deck."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.forms.boundfield import BoundField, BoundWidget
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scorekeeper.scoring import deck
from scorekeeper.scoring.cards import DECK_COUNTS, KIND_FIELDS, KINDS, CardCount
from scorekeeper.screens.counter.counting import CARD_FIELDS, CARDS

TOO_MANY_CARDS = _("Too many: the deck holds only %(limit)s.")

#: A face card's letter on its tile, and its name.
FACE_WORDS: dict[str, tuple[str | Promise, str | Promise]] = {
    "jack": (pgettext_lazy("jack, on a card tile", "J"), _("Jack")),
    "knight": (pgettext_lazy("knight (cavalier), on a card tile", "C"), _("Knight")),
    "queen": (pgettext_lazy("queen, on a card tile", "Q"), _("Queen")),
    "king": (pgettext_lazy("king, on a card tile", "K"), _("King")),
    "excuse": ("★", _("Excuse")),
}
SUIT_NAMES: dict[str, str | Promise] = {
    "t": _("Trumps and the Excuse"),
    "h": _("Hearts"),
    "d": _("Diamonds"),
    "c": _("Clubs"),
    "s": _("Spades"),
}


@dataclass(frozen=True)
class Tile:
    """A card of the tapping grid."""

    value: str  # the query-string value (scoring.deck.Card.value)
    kind: str
    text: str | Promise  # what the tile shows
    name: str | Promise  # what a screen reader says


@dataclass(frozen=True)
class SuitTiles:
    key: str
    name: str | Promise
    symbol: str
    red: bool
    cards: tuple[Tile, ...]


def _tile(card: deck.Card) -> Tile:
    text, name = FACE_WORDS.get(card.face, (card.face, card.face))
    return Tile(card.value, card.kind, text, name)


TILES: tuple[SuitTiles, ...] = tuple(
    SuitTiles(suit.key, SUIT_NAMES[suit.key], suit.symbol, suit.red, tuple(map(_tile, suit.cards)))
    for suit in deck.DECK
)
CARD_CHOICES = [(tile.value, tile.name) for suit in TILES for tile in suit.cards]


class CardCounting(forms.Form):
    """Card by card and tapping: their part of the counter form (fields on the form)."""

    def card_count(self, cleaned: Mapping[str, Any]) -> CardCount:
        """The pile counted card by card; adds an error to each kind the deck cannot hold."""
        count = CardCount(**{name: cleaned.get(name) or 0 for name in CARD_FIELDS})
        for kind in KINDS:
            name = KIND_FIELDS[kind]
            if getattr(count, name) > DECK_COUNTS[kind]:
                self.add_error(name, TOO_MANY_CARDS % {"limit": DECK_COUNTS[kind]})
        return count

    @staticmethod
    def tapped_count(cleaned: Mapping[str, Any]) -> CardCount:
        return deck.card_count_of(cleaned.get("card") or ())

    def cards_mode_id(self) -> str:
        """The id of the "card by card" radio button, for the pair method's suggestion."""
        for widget in self["mode"]:
            if widget.data["value"] == CARDS:
                return str(widget.id_for_label)
        return ""

    def card_groups(self) -> list[tuple[SuitTiles, list[tuple[Tile, BoundWidget]]]]:
        """The tapping grid: each suit with its cards and their checkboxes."""
        widgets = {widget.data["value"]: widget for widget in self["card"]}
        return [(suit, [(tile, widgets[tile.value]) for tile in suit.cards]) for suit in TILES]

    def card_rows(self) -> list[BoundField]:
        return [self[name] for name in CARD_FIELDS]
