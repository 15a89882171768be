"""The import rows of ``manage.py benchmark``: a 10,000-deal sheet and a 10,000-deal archive.

Run inside the benchmark's throw-away database, after the synthetic club is built: the sheet
is one game of five players (every kind of deal, the deal going round), imported as a new
evening of a new club; the archive is the synthetic club's own, imported as a new club.
Each is timed from the text to the rows written, through the same code as the import page.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

SECONDS_TARGET = 10.0
NAMES = ["Anaïs", "Bertrand", "Chloé", "Damien", "Élodie"]
SHAPES: list[dict[str, Any]] = [
    {"contract": "garde", "bouts": 2, "points": 49, "partner": 2},
    {"contract": "petite", "bouts": 1, "points": 48, "partner": 0},
    {"contract": "garde", "bouts": 3, "points": 56, "petit_au_bout": "attack", "partner": 3},
    {"passed": True},
    {"contract": "garde_sans", "bouts": 2, "points": 44, "poignees": ["simple"], "partner": 1},
    {"contract": "garde_contre", "bouts": 1, "points": 47, "partner": 4},
    {"scores": [40, -10, -10, -10, -10]},
]


@dataclass
class ImportTiming:
    name: str
    deals: int
    seconds: float

    @property
    def verdict(self) -> str:
        return "ok" if self.seconds < SECONDS_TARGET else "MISSED"


def sheet_text(deal_count: int) -> str:
    """A deal sheet of ``deal_count`` deals, each player taking in turn."""
    deals = []
    for number in range(deal_count):
        shape = SHAPES[number % len(SHAPES)]
        turn = number % len(NAMES)
        seat = lambda i, turn=turn: NAMES[(turn + i) % len(NAMES)]  # noqa: E731
        if "passed" in shape:
            deal: dict[str, Any] = {"passed": True}
        elif "scores" in shape:
            deal = {"scores": {seat(i): s for i, s in enumerate(shape["scores"])}}
        else:
            deal = {**shape, "taker": seat(0), "partner": seat(shape["partner"])}
        deal["dealer"] = NAMES[number % len(NAMES)]
        deals.append(deal)
    return json.dumps({"version": 2, "game": "tarot", "players": NAMES, "deals": deals})


def measure_imports(deal_count: int, club_id: int, user_id: int) -> list[ImportTiming]:
    from accounts.models import User
    from scorekeeper import services
    from scorekeeper.exchange import archive_read, archive_write
    from scorekeeper.models import Club
    from scorekeeper.scoring.import_plan import SheetEntry
    from scorekeeper.scoring.sheet import load_sheet_text

    user = User.objects.get(pk=user_id)
    text = sheet_text(deal_count)
    club = services.club_create(name="Import benchmark", owner=user)
    started = time.perf_counter()
    services.evenings_import(
        club=club, entries=[SheetEntry(sheet=load_sheet_text(text))], created_by=user
    )
    sheet = ImportTiming(
        f"import a {deal_count}-deal sheet", deal_count, time.perf_counter() - started
    )

    archive_text = archive_write.dump_archive(Club.objects.get(pk=club_id))
    started = time.perf_counter()
    archive = archive_read.read_archive(archive_text)
    services.archive_import(archive=archive, owner=user, restore_members=False)
    whole = ImportTiming(
        f"import a {archive.deal_count}-deal archive",
        archive.deal_count,
        time.perf_counter() - started,
    )
    return [sheet, whole]
