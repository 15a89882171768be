"""Reading the app's CSV back: the separator from the header row, either decimal mark, the
words in any of the app's languages (or as the deal sheet's codes), rows grouped into games.
The format itself, and its writing, are ``csv_format``'s."""

from __future__ import annotations

import csv
import io
from typing import Any

from scorekeeper.exchange import csv_rules
from scorekeeper.exchange.csv_format import (
    BOM,
    COLUMNS,
    PAPER,
    chelem_words,
    column_headers,
    petit_au_bout_words,
    uncell,
    words_back,
)
from scorekeeper.models import Deal
from scorekeeper.scoring.errors import ScoringError, to_points
from scorekeeper.scoring.import_plan import SheetEntry
from scorekeeper.scoring.inputs import clean_date, clean_place, name_key
from scorekeeper.scoring.sheet import Sheet, parse_sheet
from scorekeeper.scoring.sheet_json import not_a_player


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
    known = words_back(lambda: column_headers() | csv_rules.rules_headers())
    columns: dict[str, int] = {}
    player_columns: list[tuple[int, str]] = []
    for index, header in enumerate(rows[0]):
        key = known.get(uncell(header).casefold())
        if key is not None and key not in columns:
            columns[key] = index
        elif uncell(header):
            player_columns.append((index, uncell(header)))
    missing = [key for key in ("date", "deal") if key not in columns]
    if missing or not player_columns:
        raise ScoringError.coded(
            "csv",
            "csv_header",
            "the first row must name the columns (%(columns)s) then the players",
            columns=", ".join(column_headers()[key] for key in COLUMNS[:5]),
        )
    groups: dict[tuple[str, str, str], list[tuple[int, list[str]]]] = {}
    for number, row in enumerate(rows[1:], start=2):
        row = row + [""] * (len(rows[0]) - len(row))

        def get(key: str, row: list[str] = row) -> str:
            return uncell(row[columns[key]]) if key in columns else ""

        groups.setdefault((get("date"), get("place"), get("game") or "1"), []).append((number, row))
    contracts = words_back(lambda: dict(Deal.Contract.choices))
    words = {"petit_au_bout": words_back(petit_au_bout_words), "chelem": words_back(chelem_words)}
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
    kinds = {(uncell(row[columns["kind"]]) if "kind" in columns else "") for _n, row in group}
    escopette = sorted(kind for kind in kinds if kind.startswith("escopette"))
    game = "escopette" if escopette else "tarot"
    deals: list[dict[str, Any]] = []
    for number, row in group:

        def get(key: str, row: list[str] = row) -> str:
            return uncell(row[columns[key]]) if key in columns else ""

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
        rules = csv_rules.group_rules([(n, uncell(row[columns["rules"]])) for n, row in group])
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
