"""A player's figures over a season (or all time): contracts, partners, bonuses, evenings.

Read from the player's stored evenings (``models.figures``, kept by the writes): one query. A
tournament's tables and rounds are one evening, a night (as in ``reads.standings``).
Owns ``PlayerFigures`` and its lines, and ``player_sections`` (French Tarot figures plus the
L'escopette summary).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Hashable
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from django.utils.translation import gettext_lazy as _

from scorekeeper.models import Deal, Player, PlayerEvening
from scorekeeper.models.figures import ESCOPETTE, FIGURES, KINDS, TAROT, Tally, tally_of
from scorekeeper.reads.standings import NIGHT_FIELDS, StandingRow

CONTRACT_LABELS = dict(Deal.Contract.choices)
# The poignées as the player's page names them, in full (the deal form says only the size).
_POIGNEE_FIGURE_LABELS = {
    "simple": _("Simple poignée"),
    "double": _("Double poignée"),
    "triple": _("Triple poignée"),
}


@dataclass
class ContractLine:
    contract: str
    label: str
    taken: int = 0
    made: int = 0
    points: int = 0


@dataclass
class SideCount:
    """How often something went to the player's side, and to the other side."""

    label: str
    won: int = 0
    lost: int = 0
    key: str = ""


@dataclass
class EveningLine:
    """One night of the player's: an evening, or a tournament's tables added up."""

    evening_id: int  # the night's first
    date: dt.date
    place: str
    total: int
    tournament_id: int | None = None


@dataclass
class PlayerFigures:
    player: Player
    summary: StandingRow
    contracts: list[ContractLine]
    called: int = 0
    called_made: int = 0
    called_points: int = 0
    petit_au_bout: SideCount = field(default_factory=lambda: SideCount(label=""))
    poignees: list[SideCount] = field(default_factory=list)
    chelems: SideCount = field(default_factory=lambda: SideCount(label=""))
    chelems_failed: int = 0
    evenings: list[EveningLine] = field(default_factory=list)
    key: Hashable = None  # what the figures were built from

    @property
    def digest(self) -> str:
        """A short name for the figures, for caches: it changes whenever one may have."""
        return hashlib.sha1(repr(self.key).encode(), usedforsecurity=False).hexdigest()

    @property
    def best(self) -> EveningLine | None:
        return max(self.evenings, key=lambda e: (e.total, e.date, e.evening_id), default=None)

    @property
    def worst(self) -> EveningLine | None:
        return min(self.evenings, key=lambda e: (e.total, e.date, e.evening_id), default=None)

    def cumulative(self) -> list[int]:
        return list(accumulate(evening.total for evening in self.evenings))


#: A stored evening's row as the player's page reads it: its night, then its figures.
_FIRST_FIGURE = len(NIGHT_FIELDS)
_TOTAL = FIGURES.index("total")  # among the figures

Row = tuple[Any, ...]


def _player_rows(
    player: Player, start: dt.date | None, end: dt.date | None, kinds: tuple[str, ...]
) -> dict[str, list[Row]]:
    """The player's stored evenings in the range, by kind, in date order (one query): each
    row its night (``NIGHT_FIELDS``), then its figures (``FIGURES``)."""
    rows = PlayerEvening.objects.filter(player=player, kind__in=kinds)
    if start is not None:
        rows = rows.filter(evening__date__gte=start)
    if end is not None:
        rows = rows.filter(evening__date__lte=end)
    found: dict[str, list[Row]] = {kind: [] for kind in kinds}
    for row in rows.order_by("evening__date", "evening_id").values_list(*NIGHT_FIELDS, *FIGURES):
        found[row[0]].append(row)
    return found


def _tally(rows: list[Row]) -> Tally:
    """The rows' figures added up, column by column."""
    sums = [sum(column) for column in zip(*(row[_FIRST_FIGURE:] for row in rows), strict=True)]
    return tally_of(dict(zip(FIGURES, sums or [0] * len(FIGURES), strict=True)))


def _nights(rows: list[Row]) -> list[EveningLine]:
    """The player's nights, in date order: each evening, a tournament's tables as one."""
    nights: dict[int, EveningLine] = {}  # tournament id or -evening id -> the night
    for _kind, evening_id, date, place, tournament_id, name, *_figures in rows:
        total = _figures[_TOTAL]
        key = tournament_id or -evening_id
        night = nights.get(key)
        if night is None:
            nights[key] = EveningLine(evening_id, date, name or place, total, tournament_id)
        else:
            night.total += total
    return list(nights.values())


def _summary(player: Player, tally: Tally, nights: int) -> StandingRow:
    return StandingRow(
        player_id=player.pk,
        name=player.name,
        total=tally.total,
        evenings=nights,
        deals=tally.deals,
        takes=tally.takes,
        made=tally.made,
        games=tally.games,
        won=tally.won,
        unreplayable=tally.unreplayable,
    )


def player_sections(
    player: Player, *, start: dt.date | None = None, end: dt.date | None = None
) -> tuple[PlayerFigures, StandingRow | None]:
    """The player's French Tarot figures, and their L'escopette summary if they played any
    (one query for both)."""
    rows = _player_rows(player, start, end, KINDS)
    escopette_rows = rows[ESCOPETTE]
    escopette = _summary(player, _tally(escopette_rows), len(_nights(escopette_rows)))
    return _player_figures(player, rows[TAROT]), escopette if escopette.deals else None


def _player_figures(player: Player, rows: list[Row]) -> PlayerFigures:
    tally = _tally(rows)
    evenings = _nights(rows)
    summary = _summary(player, tally, len(evenings))
    figures = PlayerFigures(
        player=player,
        summary=summary,
        contracts=[
            ContractLine(value, str(label), *tally.contracts.get(value, (0, 0, 0)))
            for value, label in CONTRACT_LABELS.items()
        ],
        called=tally.called,
        called_made=tally.called_made,
        called_points=tally.called_points,
        petit_au_bout=SideCount(str(_("Petit au bout")), tally.petit_won, tally.petit_lost),
        poignees=[
            SideCount(str(label), *tally.poignees.get(kind_, (0, 0)), key=kind_)
            for kind_, label in _POIGNEE_FIGURE_LABELS.items()
        ],
        chelems=SideCount(str(_("Chelem")), tally.chelem_won, tally.chelem_lost),
        chelems_failed=tally.chelem_failed,
        evenings=evenings,
    )
    # What the page shows: the player, the sums, each night (plain values: quick to digest).
    nights = tuple((e.evening_id, e.date, e.place, e.total, e.tournament_id) for e in evenings)
    figures.key = (player.pk, player.name, repr(tally), nights)
    return figures
