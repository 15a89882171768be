"""Measures of the seating scheduler: repeated meetings and seconds for a few club sizes.

Pure Python, no Django; it computes no score. It may import ``scoring.seating`` and the
standard library. ``python -m tools.bench.seating_figures`` prints the
table.

Measured on a shared 2-core machine, seed 0:

    players rounds  planned: repeats seconds   round by round: repeats seconds
         16      5                 0   0.000                         8   0.06
         20      5                 0   0.25                          3   0.05
         24      5                 0   0.04                          0   0.03
         40      5                 0   0.001                         0   0.002
         80      5                 0   0.001                         0   0.004
         80      6                 0   0.001                         0   0.006

Seeds 1 and 2 give the same planned repeats (20 players in 0.8 and 0.6 s); round by round
they give 3 and 2 for 20 players, 1 and 0 for 24. Far beyond a club evening, 80 players
over 20 rounds get 4 to 6 repeats in about a second. "Planned" seats every round at once:
16 players get the affine plane, 20 players need the search and its fresh starts. "Round
by round" seats each round from the history alone, as when players come and go, and cannot
look ahead: 16 players then miss the plane unless the planned round is passed in.
"""

from __future__ import annotations

import time

from scorekeeper.scoring.seating import meetings, plan_schedule, repeated_meetings, seat_round

CASES = ((16, 5), (20, 5), (24, 5), (40, 5), (80, 5), (80, 6))


def measure_seating(
    cases: tuple[tuple[int, int], ...] = CASES, seed: int = 0, one_round_at_a_time: bool = False
) -> list[tuple[int, int, int, float]]:
    """(players, rounds, repeated meetings, seconds) for each (players, rounds) case."""
    figures = []
    for players, rounds in cases:
        everyone = list(range(players))
        start = time.perf_counter()
        if one_round_at_a_time:
            schedule: list = []
            for _ in range(rounds):
                schedule.append(seat_round(everyone, meetings(schedule), seed=seed))
        else:
            schedule = list(plan_schedule(everyone, rounds, seed=seed))
        seconds = time.perf_counter() - start
        figures.append((players, rounds, repeated_meetings(schedule), round(seconds, 3)))
    return figures


def main() -> None:
    print("players rounds  planned: repeats seconds   round by round: repeats seconds")
    planned = measure_seating()
    by_round = measure_seating(one_round_at_a_time=True)
    for (players, rounds, repeats, seconds), (_, _, again, later) in zip(
        planned, by_round, strict=True
    ):
        print(f"{players:7} {rounds:6} {repeats:17} {seconds:7.3f} {again:25} {later:7.3f}")


if __name__ == "__main__":
    main()
