"""Measures of the seating scheduler: repeated meetings and seconds for a few club sizes.

Pure Python, no Django; it computes no score. It may import ``scoring.seating`` and the
standard library. Run ``python -m scorekeeper.scoring.seating_figures`` to print the table.
"""

from __future__ import annotations

import time

from scorekeeper.scoring.seating import plan_schedule, repeated_meetings

CASES = ((16, 5), (20, 5), (24, 5), (40, 5), (80, 5), (80, 6))


def measure_seating(
    cases: tuple[tuple[int, int], ...] = CASES, seed: int = 0
) -> list[tuple[int, int, int, float]]:
    """(players, rounds, repeated meetings, seconds) for each (players, rounds) case."""
    figures = []
    for players, rounds in cases:
        start = time.perf_counter()
        schedule = plan_schedule(list(range(players)), rounds, seed=seed)
        seconds = time.perf_counter() - start
        figures.append((players, rounds, repeated_meetings(schedule), round(seconds, 3)))
    return figures


def main() -> None:
    print("players rounds repeats seconds")
    for players, rounds, repeats, seconds in measure_seating():
        print(f"{players:7} {rounds:6} {repeats:7} {seconds:7.3f}")


if __name__ == "__main__":
    main()
