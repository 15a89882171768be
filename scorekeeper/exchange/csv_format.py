"""The app's CSV, both ways, in the reader's convention.

Written in the active language's convention: French uses ``;`` between cells and a decimal
comma (``45,5``), so that French Excel opens it in columns; English and Russian use ``,`` and
``.``. UTF-8 with a byte order mark. Every word is in the reader's language: the headers,
the contract, petit au bout, the chelem and the result. Reading (``csv_read``) detects the
separator from the header row and takes either decimal mark, and those words in any of the
app's languages (or as the codes of the deal sheet: ``attack``, ``unannounced``...).

Columns: evening date, place, game, deal, kind (tarot / escopette / paper), dealer, taker,
partner, contract, bouts, points, petit au bout, poignées, chelem, stakes (L'escopette: nine
``trump:player`` pairs), result, then one column per player: the player's score, empty when
the player did not play the deal. Rows of one game share its evening's date and place and
its number; deals are numbered within their game, as on the evening's page.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from scorekeeper.exchange import csv_rules
from scorekeeper.models import Deal, Game
from scorekeeper.scoring.errors import show_points
from scorekeeper.scoring.escopette import STAKE_TRUMPS

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PAPER = "paper"
# Column keys in order, and their header in the reader's language.
COLUMNS = (
    "date",
    "place",
    "game",
    "deal",
    "kind",
    "dealer",
    "taker",
    "partner",
    "contract",
    "bouts",
    "points",
    "petit_au_bout",
    "poignees",
    "chelem",
    "stakes",
    "result",
)


def column_headers() -> dict[str, str]:
    return {
        "date": _("Evening date"),
        "place": _("Place"),
        "game": _("Game"),
        "deal": _("Deal"),
        "kind": _("Kind"),
        "dealer": _("Dealer"),
        "taker": _("Taker"),
        "partner": _("Partner"),
        "contract": _("Contract"),
        "bouts": _("Bouts"),
        "points": _("Points"),
        "petit_au_bout": _("Petit au bout"),
        "poignees": _("Poignées"),
        "chelem": _("Chelem"),
        "stakes": _("Stakes"),
        "result": _("Result"),
    }


def petit_au_bout_words() -> dict[str, str]:
    """The deal's petit au bout (and the chelem's) in the reader's words, as the deal form."""
    return {"attack": _("Attack"), "defense": _("Defence")}


def chelem_words() -> dict[str, str]:
    return {
        "announced": _("Announced and made"),
        "unannounced": _("Made, not announced"),
        "announced_failed": _("Announced and failed"),
        "defense": _("Taken by the defence"),
    }


def words_back(words: Any) -> dict[str, str]:
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


def uncell(value: str) -> str:
    value = value.strip()
    if value.startswith("'") and value[1:].startswith(FORMULA_STARTS):
        return value[1:]
    return value


def write_csv(
    games: Sequence[Any], players: Sequence[int], names: dict[int, str], result: Any
) -> str:
    """Games (``exports.GameData``) as CSV rows; ``result(deal, game)`` words the outcome."""
    separator, mark = convention()
    contracts = dict(Deal.Contract.choices)
    petit_au_bout, chelem = petit_au_bout_words(), chelem_words()
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=separator, lineterminator="\r\n")
    headers = column_headers()
    # The house rules' columns, only when some evening is not played by the FFT rules.
    with_rules = any(data.evening.rules for data in games)
    extra = list(csv_rules.rules_headers().values()) if with_rules else []
    writer.writerow([headers[key] for key in COLUMNS] + extra + [_cell(names[p]) for p in players])
    for data in games:
        game = data.game
        for deal in data.deals:
            scores = {s.player_id: s.score for s in deal.scores.all() if s.seated}
            played = game.kind == Game.Kind.TAROT and not deal.passed and not deal.paper
            kind = PAPER if deal.paper else game.kind
            if game.kind == Game.Kind.ESCOPETTE:
                kind = f"{game.kind} {game.target}"
            name = lambda pk: _cell(names.get(pk, "")) if pk else ""  # noqa: E731
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
            writer.writerow(
                [
                    data.evening.date.isoformat(),
                    _cell(data.evening.place),
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
                            _cell(csv_rules.miseres_cell(deal.miseres, names)),
                        ]
                        if with_rules
                        else []
                    ),
                    *(scores.get(player, "") for player in players),
                ]
            )
    return out.getvalue()


# --- Reading ------------------------------------------------------------------------------------


def paper_template() -> str:
    """A spreadsheet for paper history: the columns, and two deals known by their scores."""
    separator, _mark = convention()
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=separator, lineterminator="\r\n")
    headers = column_headers()
    names = ["Ana", "Ben", "Chloé", "Dan"]
    writer.writerow([headers[key] for key in COLUMNS] + names)
    blank = [""] * (len(COLUMNS) - 5)
    writer.writerow(["2024-01-12", "", 1, 1, PAPER, *blank, 90, -30, -30, -30])
    writer.writerow(["2024-01-12", "", 1, 2, PAPER, *blank, -40, 120, -40, -40])
    return out.getvalue()
