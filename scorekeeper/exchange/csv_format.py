"""The app's CSV, both ways, in the reader's convention.

One writer, ``CsvWriter``: the active language's separator and decimal mark (French ``;``
and ``45,5``), a byte order mark, words in the reader's language, and a text cell a
spreadsheet would run as a formula written after an apostrophe. Reading (``csv_read``) takes
either convention and the words in any language or as the deal sheet's codes.

Columns: date, place, game, deal, kind, dealer, taker, partner, contract, bouts, points,
petit au bout, poignées, chelem, stakes, result, then each player's score (empty when he did
not play the deal).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy

from scorekeeper.exchange import csv_rules
from scorekeeper.exchange.game_data import BOM
from scorekeeper.models import CHELEM_CHOICES, PETIT_AU_BOUT_CHOICES, Deal, Game
from scorekeeper.scoring.errors import show_points
from scorekeeper.scoring.escopette import STAKE_TRUMPS

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PAPER = "paper"
#: Column keys in order, and their header in the reader's language.
HEADERS = {
    "date": gettext_lazy("Evening date"),
    "place": gettext_lazy("Place"),
    "game": gettext_lazy("Game"),
    "deal": gettext_lazy("Deal"),
    "kind": gettext_lazy("Kind"),
    "dealer": gettext_lazy("Dealer"),
    "taker": gettext_lazy("Taker"),
    "partner": gettext_lazy("Partner"),
    "contract": gettext_lazy("Contract"),
    "bouts": gettext_lazy("Bouts"),
    "points": gettext_lazy("Points"),
    "petit_au_bout": gettext_lazy("Petit au bout"),
    "poignees": gettext_lazy("Poignées"),
    "chelem": gettext_lazy("Chelem"),
    "stakes": gettext_lazy("Stakes"),
    "result": gettext_lazy("Result"),
}
COLUMNS = tuple(HEADERS)


def column_headers() -> dict[str, str]:
    return {key: str(header) for key, header in HEADERS.items()}


def petit_au_bout_words() -> dict[str, str]:
    """The deal's petit au bout (and the chelem's) in the reader's words, as the deal form."""
    return {value: str(word) for value, word in PETIT_AU_BOUT_CHOICES if value}


def chelem_words() -> dict[str, str]:
    return {value: str(word) for value, word in CHELEM_CHOICES if value}


def words_back(words: Callable[[], dict[str, Any]]) -> dict[str, str]:
    """Every language's word (case folded), and the code itself, to the code."""
    known: dict[str, str] = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for value, word in words().items():
                known[str(word).casefold()] = value
    for value in words():
        known[value] = value
    return known


def convention() -> tuple[str, str]:
    """(cell separator, decimal mark) of the active language."""
    return (";", ",") if translation.get_language() == "fr" else (",", ".")


def _cell(value: object) -> object:
    """Text a spreadsheet would take for a formula starts with an apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class CsvWriter:
    """The one writer of the app's CSV files: rows in, the file's text out (separator, byte
    order mark, CRLF, every text cell through ``_cell``)."""

    def __init__(self) -> None:
        self.separator, self.mark = convention()
        self._out = io.StringIO()
        self._out.write(BOM)
        self._writer = csv.writer(self._out, delimiter=self.separator, lineterminator="\r\n")

    def row(self, cells: Iterable[object]) -> None:
        self._writer.writerow([_cell(cell) for cell in cells])

    def text(self) -> str:
        return self._out.getvalue()


def uncell(value: str) -> str:
    value = value.strip()
    if value.startswith("'") and value[1:].startswith(FORMULA_STARTS):
        return value[1:]
    return value


def write_csv(
    games: Sequence[Any], players: Sequence[int], names: dict[int, str], result: Any
) -> str:
    """Games (``exports.GameData``) as CSV rows; ``result(deal, game)`` words the outcome."""
    writer = CsvWriter()
    mark = writer.mark
    contracts = dict(Deal.Contract.choices)
    petit_au_bout, chelem = petit_au_bout_words(), chelem_words()
    headers = column_headers()
    # The house rules' columns, only when some evening is not played by the FFT rules.
    with_rules = any(data.evening.rules for data in games)
    extra = list(csv_rules.rules_headers().values()) if with_rules else []
    writer.row([headers[key] for key in COLUMNS] + extra + [names[p] for p in players])
    for data in games:
        game = data.game
        for deal in data.deals:
            scores = {s.player_id: s.score for s in deal.scores.all() if s.seated}
            played = game.kind == Game.Kind.TAROT and not deal.passed and not deal.paper
            kind = PAPER if deal.paper else game.kind
            if game.kind == Game.Kind.ESCOPETTE:
                kind = f"{game.kind} {game.target}"
            name = lambda pk: names.get(pk, "") if pk else ""  # noqa: E731
            points = ""
            if played and deal.points is not None:
                points = show_points(deal.points).replace(".", mark)
            stakes = ""
            if game.kind == Game.Kind.ESCOPETTE and not deal.paper:
                stakes = " ".join(
                    f"{trump}:{names.get(int(deal.stakes[str(trump)]), '')}"
                    for trump in STAKE_TRUMPS
                    if str(trump) in deal.stakes
                )
            writer.row(
                [
                    data.evening.date.isoformat(),
                    data.evening.place,
                    game.number,
                    deal.number,
                    kind,
                    name(deal.dealer_id),
                    name(deal.taker_id) if played else "",
                    name(deal.partner_id) if played else "",
                    str(contracts.get(deal.contract, deal.contract)) if played else "",
                    deal.bouts if played else "",
                    points,
                    petit_au_bout.get(deal.petit_au_bout, deal.petit_au_bout) if played else "",
                    " ".join(deal.poignees) if played else "",
                    chelem.get(deal.chelem, deal.chelem) if played else "",
                    stakes,
                    result(deal, game),
                    *(
                        [
                            csv_rules.rules_cell(data.evening.house_rules),
                            csv_rules.miseres_cell(deal.miseres, names),
                        ]
                        if with_rules
                        else []
                    ),
                    *(scores.get(player, "") for player in players),
                ]
            )
    return writer.text()


def paper_template() -> str:
    """A spreadsheet for paper history: the columns, and two deals known by their scores."""
    writer = CsvWriter()
    headers = column_headers()
    names = ["Ana", "Ben", "Chloé", "Dan"]
    writer.row([headers[key] for key in COLUMNS] + names)
    blank = [""] * (len(COLUMNS) - 5)
    writer.row(["2024-01-12", "", 1, 1, PAPER, *blank, 90, -30, -30, -30])
    writer.row(["2024-01-12", "", 1, 2, PAPER, *blank, -40, 120, -40, -40])
    return writer.text()
