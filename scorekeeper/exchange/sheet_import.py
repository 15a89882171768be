"""Deal sheets, season files and CSV in, for the import view and ``import_sheet``:
``read_import`` (checked ``SheetEntry`` items), ``import_entries`` (stored), or
``ImportRefused``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any

from scorekeeper import services
from scorekeeper.exchange.csv_read import csv_entries
from scorekeeper.exchange.error_text import error_text
from scorekeeper.exchange.exports import SEASON_VERSION, one_line
from scorekeeper.exchange.game_data import BOM
from scorekeeper.models import Club, Evening
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.import_plan import SheetEntry
from scorekeeper.scoring.inputs import clean_date, clean_place
from scorekeeper.scoring.sheet import parse_sheet
from scorekeeper.scoring.sheet_json import load_json

IMPORT_MAX_DEALS = 10_000  # what one import (page or command) may bring in


class ImportRefused(Exception):
    """A file that cannot be imported: the error and its evening; ``line`` as ``score_deals``
    prints it, ``text()`` in the active language."""

    def __init__(self, error: ScoringError, evening: int | None = None) -> None:
        self.error = error
        self.evening = evening
        self.line = (f"evening {evening}: " if evening else "") + one_line(error)
        super().__init__(self.line)

    def text(self) -> str:
        return error_text(self.error, evening=self.evening)


def _season_entries(data: dict[str, Any]) -> list[SheetEntry]:
    entries = data.get("evenings")
    if not isinstance(entries, list):
        raise ImportRefused(
            ScoringError.coded("evenings", "not_evening_list", "not a list of evenings")
        )
    if data.get("version", 1) not in (1, SEASON_VERSION):
        error = ScoringError.coded(
            "version",
            "version",
            "%(value)s is not a version this app reads (1 to %(latest)s)",
            value=repr(data.get("version")),
            latest=SEASON_VERSION,
        )
        raise ImportRefused(error)
    result = []
    evening = 0
    for number, entry in enumerate(entries, start=1):
        try:
            if not isinstance(entry, dict):
                raise ScoringError.coded(
                    "evening", "not_object", "%(value)s is not a JSON object", value=repr(entry)
                )
            date = clean_date(entry.get("date"))
            place = clean_place(entry.get("place") or "")
            game = entry.get("game", 1)
            if (
                not result
                or game in (1, None)
                or not isinstance(game, int)
                or (result[-1].date != date or result[-1].place != place)
            ):
                evening += 1
            result.append(
                SheetEntry(
                    sheet=parse_sheet(entry.get("sheet")), date=date, place=place, evening=evening
                )
            )
        except ScoringError as error:
            raise ImportRefused(error, number) from None
    return result


def refusal(error: ScoringError) -> ImportRefused:
    """The error refused in the evening it names (``evening_number``), if any."""
    return ImportRefused(error, getattr(error, "evening_number", None))


# A character of two to four bytes as UTF-8 writes it: a lead byte and its continuations.
UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)


def decode(content: bytes) -> str:
    """The file's text: UTF-8, or Windows-1252 (French Excel) for a file with no UTF-8
    character at all; UTF-8 with a broken byte is refused naming its line."""
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as error:
        line = content.count(b"\n", 0, error.start) + 1
        if UTF8_SEQUENCE.search(content):
            raise ImportRefused(
                ScoringError.coded(
                    "sheet",
                    "utf8_broken",
                    "not valid UTF-8 text: a broken character on line %(line)s",
                    line=line,
                )
            ) from None
        raw = content.decode("cp1252", errors="replace")
        if not raw.strip() or raw.lstrip().startswith(("{", "[")):
            error = ScoringError.coded("sheet", "not_utf8", "not valid UTF-8 text")
            raise ImportRefused(error) from None
        return raw


def read_import(text: str | bytes) -> list[SheetEntry]:
    """A deal sheet (one evening), a season export (one evening per entry) or a CSV."""
    raw = decode(text) if isinstance(text, bytes) else text
    raw = raw.removeprefix(BOM)
    if not raw.lstrip().startswith(("{", "[")) and raw.strip():
        try:
            return csv_entries(raw)
        except ScoringError as error:
            raise refusal(error) from None
    try:
        data = load_json(raw)  # once, for a season file as for a sheet
        season = isinstance(data, dict) and "season" in data and "evenings" in data
        entries = _season_entries(data) if season else [SheetEntry(sheet=parse_sheet(data))]
    except ScoringError as error:
        raise ImportRefused(error) from None
    check_size(entries)
    return entries


def check_size(entries: Sequence[SheetEntry]) -> None:
    """At most ``IMPORT_MAX_DEALS`` deals in one import."""
    count = sum(len(entry.sheet.deals) for entry in entries)
    if count > IMPORT_MAX_DEALS:
        raise ImportRefused(
            ScoringError.coded(
                "sheet",
                "too_many_deals",
                "%(count)s deals: one import takes at most %(limit)s",
                count=count,
                limit=IMPORT_MAX_DEALS,
            )
        )


def import_entries(
    *,
    club: Club,
    entries: Sequence[SheetEntry],
    created_by: Any,
    date: dt.date | None = None,
    place: str = "",
    skip_existing: bool = False,
) -> list[Evening]:
    """Every entry as a new closed evening, all in one transaction: all of them or none."""
    try:
        return services.evenings_import(
            club=club,
            entries=entries,
            created_by=created_by,
            date=date,
            place=place,
            skip_existing=skip_existing,
        )
    except ScoringError as error:
        raise refusal(error) from None
