"""The app's CSV, both ways, in the reader's convention.

Written in the active language's convention: French uses ``;`` between cells and a decimal
comma (``45,5``), so that French Excel opens it in columns; English and Russian use ``,`` and
``.``. UTF-8 with a byte order mark. Every word is in the reader's language: the headers,
the contract, petit au bout, the chelem and the result. Reading detects the separator from
the header row and takes either decimal mark, and those words in any of the app's languages
(or as the codes of the deal sheet: ``attack``, ``unannounced``...).

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
from scorekeeper.scoring.errors import ScoringError, show_points, to_points
from scorekeeper.scoring.escopette import STAKE_TRUMPS
from scorekeeper.scoring.import_plan import SheetEntry
from scorekeeper.scoring.inputs import clean_date, clean_place, name_key
from scorekeeper.scoring.sheet import Sheet, not_a_player, parse_sheet

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


def _headers() -> dict[str, str]:
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


def _petit_au_bout_words() -> dict[str, str]:
    """The deal's petit au bout (and the chelem's) in the reader's words, as the deal form."""
    return {"attack": _("Attack"), "defense": _("Defence")}


def _chelem_words() -> dict[str, str]:
    return {
        "announced": _("Announced and made"),
        "unannounced": _("Made, not announced"),
        "announced_failed": _("Announced and failed"),
        "defense": _("Taken by the defence"),
    }


def _words_back(words: Any) -> dict[str, str]:
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


def _uncell(value: str) -> str:
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
    petit_au_bout, chelem = _petit_au_bout_words(), _chelem_words()
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=separator, lineterminator="\r\n")
    headers = _headers()
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


def _header_names() -> dict[str, str]:
    """Every language's header (case folded) → column key."""
    known: dict[str, str] = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for key, header in (_headers() | csv_rules.rules_headers()).items():
                known[header.casefold()] = key
    for key in (*COLUMNS, *csv_rules.RULE_COLUMNS):
        known[key] = key
    return known


def _contract_names() -> dict[str, str]:
    known: dict[str, str] = {value: value for value in Deal.Contract.values}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for value, label in Deal.Contract.choices:
                known[str(label).casefold()] = value
    return known


def _fail(row: int, field: str, code: str, template: str, **params: object) -> ScoringError:
    error = ScoringError.coded(field, code, template, **params)
    error.row = row  # type: ignore[attr-defined]
    return error


def _number(text: str, row: int, field: str) -> Any:
    """A cell as a JSON-like number, either decimal mark."""
    try:
        value = to_points(text.replace(",", "."), field)
    except ScoringError as error:
        error.row = row  # type: ignore[attr-defined]
        raise
    return int(value) if value == value.to_integral_value() else float(value)


def _sniff(text: str) -> str:
    first = text.split("\n", 1)[0]
    return ";" if first.count(";") > first.count(",") else ","


def csv_entries(text: str) -> list[SheetEntry]:
    """The app's CSV back into games: one entry per (date, place, game), all checked."""
    try:
        reader = csv.reader(io.StringIO(text.removeprefix(BOM), newline=""), delimiter=_sniff(text))
        rows = list(reader)
    except csv.Error:
        raise ScoringError.coded(
            "csv",
            "csv_broken",
            "the file is not a table of cells (line %(line)s)",
            line=reader.line_num,
        ) from None
    rows = [row for row in rows if any(cell.strip() for cell in row)]
    if not rows:
        raise ScoringError.coded("csv", "csv_empty", "the file holds no rows")
    known = _header_names()
    columns: dict[str, int] = {}
    player_columns: list[tuple[int, str]] = []
    for index, header in enumerate(rows[0]):
        key = known.get(_uncell(header).casefold())
        if key is not None and key not in columns:
            columns[key] = index
        elif _uncell(header):
            player_columns.append((index, _uncell(header)))
    missing = [key for key in ("date", "deal") if key not in columns]
    if missing or not player_columns:
        raise ScoringError.coded(
            "csv",
            "csv_header",
            "the first row must name the columns (%(columns)s) then the players",
            columns=", ".join(_headers()[key] for key in COLUMNS[:5]),
        )
    groups: dict[tuple[str, str, str], list[tuple[int, list[str]]]] = {}
    for number, row in enumerate(rows[1:], start=2):
        row = row + [""] * (len(rows[0]) - len(row))

        def get(key: str, row: list[str] = row) -> str:
            return _uncell(row[columns[key]]) if key in columns else ""

        groups.setdefault((get("date"), get("place"), get("game") or "1"), []).append((number, row))
    contracts = _contract_names()
    words = {
        "petit_au_bout": _words_back(_petit_au_bout_words),
        "chelem": _words_back(_chelem_words),
    }
    entries = []
    evening = 0
    last: tuple[str, str] | None = None
    for (date_text, place_text, _game), group in groups.items():
        first_row = group[0][0]
        try:
            date = clean_date(date_text)
            place = clean_place(place_text)
        except ScoringError as error:
            error.row = first_row  # type: ignore[attr-defined]
            raise
        if last != (date_text, place_text):
            evening += 1
            last = (date_text, place_text)
        sheet = _group_sheet(group, columns, player_columns, contracts, words)
        entries.append(SheetEntry(sheet=sheet, date=date, place=place, evening=evening))
    return entries


def _group_sheet(
    group: list[tuple[int, list[str]]],
    columns: dict[str, int],
    player_columns: list[tuple[int, str]],
    contracts: dict[str, str],
    words: dict[str, dict[str, str]],
) -> Sheet:
    """One game's rows as a deal sheet (checked by the pure sheet parser)."""
    used = [
        (index, name)
        for index, name in player_columns
        if any(row[index].strip() for _number, row in group)
    ]
    players = [name for _index, name in used]
    by_key = {name_key(name): name for name in players}
    kinds = {(_uncell(row[columns["kind"]]) if "kind" in columns else "") for _n, row in group}
    escopette = sorted(kind for kind in kinds if kind.startswith("escopette"))
    game = "escopette" if escopette else "tarot"
    deals: list[dict[str, Any]] = []
    for number, row in group:

        def get(key: str, row: list[str] = row) -> str:
            return _uncell(row[columns[key]]) if key in columns else ""

        def player(key: str, number: int = number, get: Any = get) -> str | None:
            text = get(key)
            if not text:
                return None
            name = by_key.get(name_key(text))
            if name is None:
                error = not_a_player(key, text)
                error.row = number  # type: ignore[attr-defined]
                raise error
            return name

        scores = {name: row[index].strip() for index, name in used if row[index].strip()}
        deal: dict[str, Any] = {}
        kind = get("kind")
        if kind == PAPER:
            deal["scores"] = {name: _whole(value, number, name) for name, value in scores.items()}
        elif game == "escopette":
            stakes: dict[str, str | None] = {}
            for pair in get("stakes").split():
                trump, _sep, winner = pair.partition(":")
                stakes[trump] = by_key.get(name_key(winner), winner)
            deal["stakes"] = stakes
        elif not get("contract"):
            deal["passed"] = True
        else:
            deal["taker"] = player("taker")
            deal["contract"] = contracts.get(get("contract").casefold(), get("contract"))
            deal["bouts"] = _whole(get("bouts"), number, "bouts")
            deal["points"] = _number(get("points"), number, "points")
            partner = player("partner")
            if partner is not None:
                deal["partner"] = partner
            for key in ("petit_au_bout", "chelem"):
                if get(key):
                    deal[key] = words[key].get(get(key).casefold(), get(key))
            if get("poignees"):
                deal["poignees"] = get("poignees").split()
            if get("miseres"):
                deal["miseres"] = [
                    by_key.get(name_key(name), name)
                    for name in csv_rules.miseres_from_cell(get("miseres"))
                ]
        if game == "tarot":
            away = [name for name in players if name not in scores]
            if away:
                deal["sitting_out"] = away
        dealer = player("dealer")
        if dealer is not None:
            deal["dealer"] = dealer
        deals.append(deal)
    data: dict[str, Any] = {"version": 2, "game": game, "players": players, "deals": deals}
    rules = {}
    if game == "tarot" and "rules" in columns:
        rules = csv_rules.group_rules([(n, _uncell(row[columns["rules"]])) for n, row in group])
    if rules:
        data.update(version=3, rules=rules)
    if game == "escopette":
        target = escopette[0].removeprefix("escopette").strip()
        data["target"] = int(target) if target.isascii() and target.isdigit() else target
    try:
        return parse_sheet(data)
    except ScoringError as error:
        if error.deal is not None:
            error.row = group[error.deal - 1][0]  # type: ignore[attr-defined]
            error.deal = None
        raise


def _whole(text: str, row: int, field: str) -> int:
    try:
        return int(text.strip().replace("\u2212", "-"))
    except ValueError:
        raise _fail(
            row, field, "not_whole", "%(value)s is not a whole number", value=text
        ) from None


def paper_template() -> str:
    """A spreadsheet for paper history: the columns, and two deals known by their scores."""
    separator, _mark = convention()
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=separator, lineterminator="\r\n")
    headers = _headers()
    names = ["Ana", "Ben", "Chloé", "Dan"]
    writer.writerow([headers[key] for key in COLUMNS] + names)
    blank = [""] * (len(COLUMNS) - 5)
    writer.writerow(["2024-01-12", "", 1, 1, PAPER, *blank, 90, -30, -30, -30])
    writer.writerow(["2024-01-12", "", 1, 2, PAPER, *blank, -40, 120, -40, -40])
    return out.getvalue()
