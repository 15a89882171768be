"""What an import would write, read without writing: evenings (and those already here),
deals, players to create and totals, through the services' ``PlayerBook`` and
``duplicate_of``, never saved.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from scorekeeper.exchange.lookalike import lookalikes, mixes_scripts
from scorekeeper.models import Club, Evening
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.import_plan import (
    SheetEntry,
    dated_digest,
    evening_keys,
    in_evening,
    plan_entries,
)
from scorekeeper.scoring.inputs import name_key
from scorekeeper.server.wording import name_order
from scorekeeper.services.imports import PlayerBook, duplicate_of


@dataclass
class EveningPreview:
    date: dt.date
    place: str
    games: int
    deals: int
    duplicate_of: Evening | None = None


@dataclass
class ImportPreview:
    """What an import would write, computed without writing anything."""

    evenings: list[EveningPreview]
    deals: int
    new_players: list[str]
    totals: list[tuple[str, int]]  # every player of the file, highest total first
    lookalikes: list[tuple[str, str]] = field(default_factory=list)  # (new, looks like)
    mixed_scripts: list[str] = field(default_factory=list)  # new names mixing alphabets

    @property
    def already_here(self) -> list[EveningPreview]:
        """The evenings of the file that the club holds already (an import would stop)."""
        return [evening for evening in self.evenings if evening.duplicate_of is not None]


def import_preview(
    *,
    club: Club,
    entries: Sequence[SheetEntry],
    date: dt.date | None = None,
    place: str = "",
    skip_existing: bool = False,
) -> ImportPreview:
    """Evenings, deals, players to create and totals per player; a ScoringError if refused."""
    plans = plan_entries(entries)
    book = PlayerBook(club)
    totals: dict[str, int] = {}
    shown: dict[str, str] = {}
    evenings: list[EveningPreview] = []
    by_key: dict[Any, EveningPreview] = {}
    keys, _rules = evening_keys(entries, plans)  # as the import groups them
    for number, (entry, plan) in enumerate(zip(entries, plans, strict=True), start=1):
        try:
            roster = book.roster(entry.sheet.players)
        except ScoringError as error:
            raise in_evening(error, number, len(entries)) from None
        day = entry.date or date or timezone.localdate()
        existing = duplicate_of(club, dated_digest(plan.digest, day), day)
        if existing is not None and skip_existing:
            continue
        key = keys[number - 1]
        preview = by_key.get(key) if key is not None else None
        if preview is None:
            preview = EveningPreview(
                date=day, place=entry.place if entry.date else place, games=0, deals=0
            )
            evenings.append(preview)
            if key is not None:
                by_key[key] = preview
        preview.games += 1
        preview.deals += len(plan.deals)
        preview.duplicate_of = preview.duplicate_of or existing
        names = dict(zip(entry.sheet.players, roster, strict=True))
        for deal in plan.deals:
            for name, score in deal.scores.items():
                player_key = name_key(names[name].name)
                shown.setdefault(player_key, names[name].name)
                totals[player_key] = totals.get(player_key, 0) + score
    new_players = sorted((player.name for player in book.new.values()), key=name_order)
    return ImportPreview(
        evenings=evenings,
        deals=sum(evening.deals for evening in evenings),
        new_players=new_players,
        lookalikes=lookalikes(new_players, [p.name for p in book.known.values()]),
        mixed_scripts=[name for name in new_players if mixes_scripts(name)],
        totals=sorted(
            ((shown[key], total) for key, total in totals.items()),
            key=lambda item: (-item[1], name_order(item[0])),
        ),
    )
