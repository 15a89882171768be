"""Print how well the ratings predict deals on synthetic clubs, and how long a replay takes.

Run ``python -m tools.bench.rating_benchmark``. Pure (no Django): the
``benchmark`` and ``rating_quality`` commands print the same lines (:func:`quality_line`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from scorekeeper.scoring.deal_facts import DealFacts
from scorekeeper.scoring.rating_quality import PredictionQuality
from scorekeeper.scoring.ratings import RatingState
from tools.bench.rating_club import synthetic_club


def quality_line(name: str, deals: Iterable[DealFacts]) -> str:
    """One line: deals rated, Brier and log loss of the ratings and of the base rate."""
    return describe(name, RatingState().advance(deals).quality.result())


def describe(name: str, quality: PredictionQuality) -> str:
    """The line of :func:`quality_line` for figures already computed."""
    verdict = "beats" if quality.beats_base_rate else "does NOT beat"
    return (
        f"{name}: {quality.deals} deals, Brier {quality.brier:.4f} vs base rate "
        f"{quality.brier_base:.4f}, log loss {quality.log_loss:.4f} vs "
        f"{quality.log_loss_base:.4f}: the rating {verdict} the base rate"
    )


def replay_seconds(deals: list[DealFacts], tries: int = 3) -> float:
    """The best of a few full replays, in seconds."""
    best = float("inf")
    for _ in range(tries):
        start = time.perf_counter()
        RatingState().advance(deals)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    for spread in (1.0, 0.5, 0.0):
        club = synthetic_club(spread=spread)
        print(quality_line(f"synthetic club, skill spread {spread}", club.deals))
    big = synthetic_club(players=30, evenings=400, deals_per_evening=25).deals
    print(quality_line("synthetic club of 10,000 deals, skill spread 1.0", big))
    print(f"full replay of {len(big)} deals: {replay_seconds(big):.3f} s (best of 3)")


if __name__ == "__main__":
    main()
