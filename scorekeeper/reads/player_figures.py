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
        if not self.evenings:
            return None
        return max(self.evenings, key=lambda e: (e.total, e.date, e.evening_id))

    @property
    def worst(self) -> EveningLine | None:
        if not self.evenings:
            return None
        return min(self.evenings, key=lambda e: (e.total, e.date, e.evening_id))

    def cumulative(self) -> list[int]:
        running, values = 0, []
        for evening in self.evenings:
            running += evening.total
            values.append(running)
        return values


def _player_rows(
    player: Player, start: dt.date | None, end: dt.date | None, kinds: tuple[str, ...]
) -> dict[str, list[dict[str, Any]]]:
    """The player's stored evenings in the range, by kind, in date order (one query)."""
    rows = PlayerEvening.objects.filter(player=player, kind__in=kinds)
    if start is not None:
        rows = rows.filter(evening__date__gte=start)
    if end is not None:
        rows = rows.filter(evening__date__lte=end)
    found: dict[str, list[dict[str, Any]]] = {kind: [] for kind in kinds}
    for row in rows.order_by("evening__date", "evening_id").values(*NIGHT_FIELDS, *FIGURES):
        found[row["kind"]].append(row)
    return found


def _tally(rows: list[dict[str, Any]]) -> Tally:
    tally = Tally()
    for row in rows:
        tally.add(tally_of(row))
    return tally


def _nights(rows: list[dict[str, Any]]) -> list[EveningLine]:
    """The player's nights, in date order: each evening, a tournament's tables as one."""
    nights: dict[int, EveningLine] = {}  # tournament id or -evening id -> the night
    for row in rows:
        tournament_id = row["evening__tournament_table__round__tournament_id"]
        key = tournament_id or -row["evening_id"]
        night = nights.get(key)
        if night is None:
            nights[key] = EveningLine(
                row["evening_id"],
                row["evening__date"],
                row["evening__tournament_table__round__tournament__name"] or row["evening__place"],
                row["total"],
                tournament_id,
            )
        else:
            night.total += row["total"]
    return list(nights.values())


def _summary(player: Player, rows: list[dict[str, Any]]) -> StandingRow:
    tally = _tally(rows)
    return StandingRow(
        player_id=player.pk,
        name=player.name,
        total=tally.total,
        evenings=len(_nights(rows)),
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
    escopette = _summary(player, rows[ESCOPETTE])
    return _player_figures(player, rows[TAROT]), escopette if escopette.deals else None


def _player_figures(player: Player, rows: list[dict[str, Any]]) -> PlayerFigures:
    tally = _tally(rows)
    summary = _summary(player, rows)
    evenings = _nights(rows)
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
    figures.key = (player.pk, player.name, repr(tally), tuple(evenings))
    return figures
