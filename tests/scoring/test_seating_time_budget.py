"""The seating search within a time budget: it stops at its deadline with every round seated."""

from __future__ import annotations

import time

from scorekeeper.scoring.seating import plan_following


def test_a_search_given_no_time_still_seats_every_player_in_every_round_at_once() -> None:
    players = list(range(12))
    start = time.perf_counter()
    plan = plan_following(players, 6, seed=1, work=2_000_000, seconds=0)
    assert time.perf_counter() - start < 0.5  # the work alone takes 2 to 4 s here
    assert len(plan) == 6
    for tables in plan:
        assert sorted(p for table in tables for p in table.players) == players
