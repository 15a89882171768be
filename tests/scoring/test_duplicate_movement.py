from __future__ import annotations

import time
from collections import Counter

import pytest

from scorekeeper.scoring.duplicate import DuplicateError, Movement, duplicate_movement
from scorekeeper.scoring.seating import meetings


def check(movement: Movement) -> Counter:
    """Assert the movement's rules; answer how many times each pair met."""
    n, tables = movement.players, movement.tables
    assert tables == n // 4 and movement.sets == tables
    sat_out: Counter[int] = Counter()
    plays: Counter[tuple[int, int]] = Counter()
    for r in range(movement.rounds):
        seated = [p for table in movement.seating[r] for p in table]
        assert len(movement.seating[r]) == tables
        assert all(len(table) == 4 for table in movement.seating[r])
        assert len(set(seated)) == 4 * tables and all(0 <= p < n for p in seated)
        assert sorted(movement.set_at[r]) == list(range(tables))  # a different set at each table
        out = movement.sitting_out(r)
        assert len(out) == n % 4 and not set(out) & set(seated)
        sat_out.update(out)
        for t, table in enumerate(movement.seating[r]):
            plays.update((p, movement.set_at[r][t]) for p in table)
            first = movement.set_at[r][t] * movement.deals_per_round + 1
            assert movement.cases(r, t) == tuple(range(first, first + movement.deals_per_round))
    assert max(plays.values()) == 1, "a player met a set twice"
    assert max(sat_out.values(), default=0) <= 1, "a player sat out twice"
    return meetings(movement.seating)


def repeated_pairs(movement: Movement) -> int:
    return sum(1 for c in check(movement).values() if c > 1)


@pytest.mark.parametrize("players", range(12, 61))
def test_every_count_of_players_gets_a_movement_with_no_set_twice(players):
    tables = players // 4
    for rounds, deals in ((1, 1), (2, 3), (min(tables, 6), 4)):
        check(duplicate_movement(players=players, rounds=rounds, deals_per_round=deals))


@pytest.mark.parametrize("players", [12, 15, 16, 19, 24, 27, 36, 45, 59, 60])
def test_as_many_rounds_as_tables_play_every_set_once(players):
    tables = players // 4
    movement = duplicate_movement(players=players, rounds=tables, deals_per_round=2)
    check(movement)
    for p in range(players):
        sets = [movement.set_at[r][t] for r in range(tables)
                for t, table in enumerate(movement.seating[r]) if p in table]  # fmt: skip
        assert len(sets) == tables - (
            p in {q for r in range(tables) for q in movement.sitting_out(r)}
        )


@pytest.mark.parametrize("players", [20, 28, 44, 52])
def test_a_prime_number_of_tables_of_5_or_more_never_seats_a_pair_twice(players):
    movement = duplicate_movement(players=players, rounds=players // 4, deals_per_round=1)
    assert repeated_pairs(movement) == 0


def test_with_few_rounds_for_the_tables_no_pair_meets_twice():
    for players in range(28, 61):
        movement = duplicate_movement(players=players, rounds=4, deals_per_round=1)
        assert repeated_pairs(movement) == 0, players
    for players in range(39, 61, 3):
        movement = duplicate_movement(players=players, rounds=6, deals_per_round=1)
        assert repeated_pairs(movement) == 0, players


def test_the_search_seats_far_fewer_repeats_than_its_start():
    # 24 players over 6 rounds: 6 tables, no prime; the walks mod 6 it starts from seat 84
    # pairs more than once (132 meetings too many, a pair 6 times).
    met = check(duplicate_movement(players=24, rounds=6, deals_per_round=6))
    assert sum(c - 1 for c in met.values()) <= 45 and max(met.values()) <= 3


def test_the_largest_movement_takes_under_a_second_or_two_on_a_busy_machine():
    start = time.perf_counter()
    duplicate_movement(players=60, rounds=15, deals_per_round=4)
    assert time.perf_counter() - start < 2


def test_a_seed_gives_the_same_movement_and_another_seed_another():
    first = duplicate_movement(players=26, rounds=5, deals_per_round=3, seed=4)
    assert first == duplicate_movement(players=26, rounds=5, deals_per_round=3, seed=4)
    assert first != duplicate_movement(players=26, rounds=5, deals_per_round=3, seed=5)


def test_a_movement_goes_to_json_and_back():
    movement = duplicate_movement(players=17, rounds=4, deals_per_round=3)
    assert Movement.from_json(movement.to_json()) == movement
    assert movement.cases(0, 0)[0] % 3 == 1


@pytest.mark.parametrize(
    "data",
    [{}, {"players": 12}, "text", {**duplicate_movement(players=12, rounds=2, deals_per_round=1)
                                   .to_json(), "seating": [[[0, 1, 2]]]}],
)  # fmt: skip
def test_something_that_is_not_a_movement_is_refused_as_such(data):
    with pytest.raises(DuplicateError) as refused:
        Movement.from_json(data)
    assert refused.value.code == "bad_movement"


@pytest.mark.parametrize(
    ("players", "rounds", "deals", "field"),
    [(11, 2, 1, "players"), (61, 2, 1, "players"), (12, 4, 1, "rounds"), (24, 0, 1, "rounds"),
     (24, 7, 1, "rounds"), (24, 2, 0, "deals_per_round"), (True, 2, 1, "players")],
)  # fmt: skip
def test_counts_out_of_range_are_refused_with_the_field_named(players, rounds, deals, field):
    with pytest.raises(DuplicateError) as refused:
        duplicate_movement(players=players, rounds=rounds, deals_per_round=deals)
    assert (refused.value.field, refused.value.code) == (field, "out_of_range")
