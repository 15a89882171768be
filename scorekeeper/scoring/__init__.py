"""Pure Python scoring for French Tarot and l'escopette (no Django here)."""

from __future__ import annotations

from scorekeeper.scoring.errors import ScoringError, to_points

__all__ = ["ScoringError", "to_points"]
