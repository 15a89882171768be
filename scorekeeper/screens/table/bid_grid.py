"""The taker and the contract in one tap: a grid of the seated players by the four contracts,
with the called partner in a fifth column at five players.

One radio (``deal-bid`` = ``<player id>:<contract>``) stands for both answers, so a plain deal
takes one tap fewer, and the partner's column saves the space of a row. The form still takes
``deal-taker`` and ``deal-contract`` as before (a deal kept offline by an older page): the bid,
when sent, is what counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scorekeeper.models import Deal, Player
from scorekeeper.server.parsing import parse_id

#: What a cell shows: the contract's letters, as the sheet's rows write them.
MARKS = {
    "petite": pgettext_lazy("Petite, in a sheet row", "P"),
    "garde": pgettext_lazy("Garde, in a sheet row", "G"),
    "garde_sans": pgettext_lazy("Garde sans, in a sheet row", "GS"),
    "garde_contre": pgettext_lazy("Garde contre, in a sheet row", "GC"),
}
#: The columns' headings, short enough for a 44 px column.
HEADINGS = {
    "petite": pgettext_lazy("a column of the bid grid", "Petite"),
    "garde": pgettext_lazy("a column of the bid grid", "Garde"),
    "garde_sans": pgettext_lazy("a column of the bid grid", "Sans"),
    "garde_contre": pgettext_lazy("a column of the bid grid", "Contre"),
}


@dataclass(frozen=True)
class BidCell:
    value: str
    label: str  # for screen readers: "Ana, Garde"
    mark: str
    checked: bool


@dataclass(frozen=True)
class BidRow:
    player: Player
    cells: list[BidCell]
    partner_label: str
    partner_checked: bool


def bid_choices(present: list[Player]) -> list[tuple[str, str]]:
    return [
        (f"{player.pk}:{contract}", f"{player.name}, {label}")
        for player in present
        for contract, label in Deal.Contract.choices
    ]


def parse_bid(value: Any) -> tuple[int, str] | None:
    """The taker's id and the contract a bid names, or None."""
    player, _sep, contract = str(value or "").partition(":")
    player_id = parse_id(player)
    if player_id is None or contract not in MARKS:
        return None
    return player_id, contract


def chosen_bid(form: Any) -> str:
    """The bid the form shows: the one sent, else the taker and contract sent or given."""
    if form.is_bound:
        sent = form.data.get(form.add_prefix("bid"))
        if sent:
            return str(sent)
        taker = form.data.get(form.add_prefix("taker"))
        contract = form.data.get(form.add_prefix("contract"))
    else:
        if form.initial.get("bid"):
            return str(form.initial["bid"])
        taker, contract = form.initial.get("taker"), form.initial.get("contract")
    return f"{taker}:{contract}" if taker and contract else ""


def bid_rows(form: Any) -> list[BidRow]:
    chosen = chosen_bid(form)
    partner = str(form["partner"].value() or "")
    rows = []
    for player in form.present:
        cells = [
            BidCell(
                value=f"{player.pk}:{contract}",
                label=f"{player.name}, {label}",
                mark=str(MARKS[contract]),
                checked=chosen == f"{player.pk}:{contract}",
            )
            for contract, label in Deal.Contract.choices
        ]
        rows.append(
            BidRow(
                player=player,
                cells=cells,
                partner_label=str(_("%(name)s, called partner") % {"name": player.name}),
                partner_checked=partner == str(player.pk),
            )
        )
    return rows


def headings() -> list[str]:
    return [str(HEADINGS[contract]) for contract, _label in Deal.Contract.choices]
