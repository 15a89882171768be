"""Is the rating worth showing? Its predictions (openskill's ``predict_win`` for the attack)
against the running rate of attack wins before each deal (starting at 1/2): shown only when
both its Brier score and its log loss are lower.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

CLIP = 1e-6


@dataclass(frozen=True)
class PredictionQuality:
    """Mean Brier score and log loss of the ratings and of the running base rate."""

    deals: int
    brier: float
    brier_base: float
    log_loss: float
    log_loss_base: float

    @property
    def beats_base_rate(self) -> bool:
        """True when the ratings predicted better on both scores (never with no deal)."""
        better_brier = self.brier < self.brier_base
        return self.deals > 0 and better_brier and self.log_loss < self.log_loss_base


def _log_loss(chance: float, won: bool) -> float:
    chance = min(max(chance, CLIP), 1 - CLIP)
    return -math.log(chance if won else 1 - chance)


@dataclass
class QualitySums:
    """The running sums behind :class:`PredictionQuality`, added to deal by deal."""

    count: int = 0
    wins: int = 0
    brier: float = 0.0
    brier_base: float = 0.0
    loss: float = 0.0
    loss_base: float = 0.0

    def add(self, chance: float, made: bool) -> None:
        """One more deal: the ratings said ``chance``; the base rate what came before."""
        base = (self.wins + 1) / (self.count + 2)
        outcome = 1.0 if made else 0.0
        self.brier += (chance - outcome) ** 2
        self.brier_base += (base - outcome) ** 2
        self.loss += _log_loss(chance, made)
        self.loss_base += _log_loss(base, made)
        self.count += 1
        self.wins += made

    def result(self) -> PredictionQuality:
        count = self.count
        if not count:
            return PredictionQuality(0, 0.0, 0.0, 0.0, 0.0)
        return PredictionQuality(
            deals=count,
            brier=self.brier / count,
            brier_base=self.brier_base / count,
            log_loss=self.loss / count,
            log_loss_base=self.loss_base / count,
        )
