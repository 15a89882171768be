"""Evening ranking points in the standings: each evening's places given points by the
club's scale (``scoring.club_figures.evening_places``), added up over the season from the
standings' per-evening totals: no query here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scorekeeper.reads.standings import SeasonStats, StandingRow
from scorekeeper.scoring.club_figures import evening_places


def season_evening_points(stats: SeasonStats, scale: Sequence[int]) -> dict[int, float]:
    """Each player's evening ranking points over the season's evenings."""
    nights: dict[int, dict[int, int]] = {}
    for (evening_id, player_id), points in stats.points.items():
        nights.setdefault(evening_id, {})[player_id] = points
    totals: dict[int, float] = {}
    for night in nights.values():
        for player_id, points in evening_places(night, scale).items():
            totals[player_id] = totals.get(player_id, 0.0) + float(points)
    return totals


def with_evening_points(stats: SeasonStats, scale: Sequence[int]) -> list[StandingRow]:
    """The standings' rows, each with its evening ranking points."""
    points = season_evening_points(stats, scale)
    return [
        replace(row, evening_points=round(points.get(row.player_id, 0.0), 1)) for row in stats.rows
    ]
