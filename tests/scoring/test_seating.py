from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.seating import (
    Table,
    affine_plane_16,
    meetings,
    plan_schedule,
    repeated_meetings,
    seat_round,
    table_sizes,
)
from tools.bench.seating_figures import measure_seating


def seated_once(tables: tuple[Table, ...], present: list) -> bool:
    """Every player present sits at exactly one seat of the round."""
    seats = Counter(player for table in tables for player in table)
    return set(seats) == set(present) and all(n == 1 for n in seats.values())


def test_sixteen_players_over_five_rounds_never_meet_twice():
    players = [f"P{i}" for i in range(16)]
    for seed in range(5):
        schedule = plan_schedule(players, 5, seed=seed)
        assert len(schedule) == 5
        assert repeated_meetings(schedule) == 0
        for tables in schedule:
            assert [len(table) for table in tables] == [4, 4, 4, 4]
            assert seated_once(tables, players)
        # 5 rounds of 4 tables of 6 pairs: all 120 pairs of 16 players, each once
        assert len(meetings(schedule)) == 120


def test_the_affine_plane_of_order_four_has_five_parallel_classes_covering_every_pair():
    rounds = affine_plane_16()
    assert len(rounds) == 5
    for lines in rounds:
        assert sorted(p for line in lines for p in line) == list(range(16))
    counts = meetings(rounds)
    assert len(counts) == 120 and set(counts.values()) == {1}


def test_a_sixth_round_for_sixteen_players_makes_each_player_meet_three_again():
    schedule = plan_schedule(list(range(16)), 6, seed=1)
    assert repeated_meetings(schedule[:5]) == 0
    # every pair met once in 5 rounds, so each table of round 6 repeats its 6 pairs
    assert repeated_meetings(schedule) == 24


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (4, [4]),
        (5, [5]),
        (8, [4, 4]),
        (9, [4, 5]),
        (10, [5, 5]),
        (16, [4, 4, 4, 4]),
        (17, [4, 4, 4, 5]),
        (18, [4, 4, 5, 5]),
        (19, [4, 5, 5, 5]),
        (20, [4] * 5),
        (23, [4, 4, 5, 5, 5]),
    ],
)
def test_tables_are_of_four_with_tables_of_five_only_as_the_count_requires(count, sizes):
    assert table_sizes(count) == sizes


def test_every_count_from_eight_to_eighty_sits_at_fours_and_at_most_three_fives():
    for count in range(8, 81):
        if count == 11:
            continue
        sizes = table_sizes(count)
        assert sum(sizes) == count
        assert set(sizes) <= {4, 5}
        assert sizes.count(5) == count % 4


@pytest.mark.parametrize(
    ("count", "sizes"), [(3, [3]), (6, [3, 3]), (7, [4, 3]), (11, [4, 4, 3]), (9, [4, 5])]
)
def test_tables_of_three_come_only_when_allowed_and_fours_and_fives_cannot_do_it(count, sizes):
    assert table_sizes(count, allow_three=True) == sizes


@pytest.mark.parametrize("count", [0, 1, 2, 3, 6, 7, 11])
def test_counts_that_cannot_be_seated_are_refused_with_a_coded_error(count):
    with pytest.raises(ScoringError) as caught:
        table_sizes(count)
    assert caught.value.field == "players"
    assert caught.value.code in {"too_few_to_seat", "needs_table_of_three"}


def test_fewer_than_three_players_are_refused_even_with_tables_of_three():
    with pytest.raises(ScoringError, match="too few"):
        table_sizes(2, allow_three=True)


def test_a_withdrawal_and_a_late_arrival_are_seated_from_the_schedule_and_who_is_present():
    players = [f"P{i}" for i in range(16)]
    schedule = plan_schedule(players, 5, seed=3)
    played = list(schedule[:2])
    present = [p for p in players if p != "P7"] + ["Late"]
    tables = seat_round(present, meetings(played), seed=3, planned=schedule[2])
    assert seated_once(tables, present)
    assert [len(t) for t in tables] == [4, 4, 4, 4]
    assert repeated_meetings([*played, tables]) == 0
    # the tables of the plan that lost no one are kept whole
    kept = {frozenset(t) for t in schedule[2] if "P7" not in t}
    assert kept <= {frozenset(t) for t in tables}


def test_an_unchanged_field_gets_the_planned_round_as_it_was():
    players = list(range(16))
    schedule = plan_schedule(players, 5, seed=2)
    tables = seat_round(players, meetings(schedule[:3]), seed=9, planned=schedule[3])
    assert {frozenset(t) for t in tables} == {frozenset(t) for t in schedule[3]}


def test_two_withdrawals_bring_a_table_of_five_from_eighteen_to_sixteen_and_back():
    players = list(range(18))
    first = seat_round(players, seed=4)
    assert sorted(len(t) for t in first) == [4, 4, 5, 5]
    present = [p for p in players if p not in (0, 1)]
    second = seat_round(present, meetings([first]), seed=4)
    assert seated_once(second, present)
    assert repeated_meetings([first, second]) == 0
    third = seat_round(players, meetings([first, second]), seed=4)
    assert seated_once(third, players)
    # each table of 5 takes two players from one of the 4 tables of round 1: 2 at least
    assert repeated_meetings([first, second, third]) == 2


def test_the_history_of_who_met_whom_keeps_pairs_apart_in_the_next_rounds():
    players = list(range(20))
    history: list = []
    for _ in range(4):
        history.append(seat_round(players, meetings(history), seed=0))
    assert repeated_meetings(history) == 0


def test_twelve_players_meet_again_no_more_than_the_three_tables_force():
    players = list(range(12))
    first = seat_round(players, seed=0)
    second = seat_round(players, meetings([first]), seed=0)
    # 3 tables of 4 from 3 tables of 4: each new table holds two who met
    assert repeated_meetings([first, second]) == 3


def test_the_same_seed_gives_the_same_schedule_seats_and_dealers():
    assert plan_schedule(list(range(20)), 4, seed=7) == plan_schedule(list(range(20)), 4, seed=7)
    assert seat_round(list(range(13)), seed=5) == seat_round(list(range(13)), seed=5)


def test_a_table_names_its_first_dealer_among_its_players():
    for table in plan_schedule(list("abcdefghijklmnopq"), 2, seed=1)[1]:
        assert 0 <= table.first_dealer < len(table)
        assert table.dealer == table.players[table.first_dealer]


def test_seat_one_and_the_first_deal_do_not_always_go_to_the_same_player():
    schedule = plan_schedule(list(range(16)), 5, seed=0)
    first_seats = {p: sum(t.players[0] == p for r in schedule for t in r) for p in range(16)}
    assert max(first_seats.values()) < 5
    assert len({t.dealer for r in schedule for t in r}) > 4


def test_repeated_meetings_count_each_meeting_beyond_the_first():
    rounds = [[("a", "b", "c")], [("a", "b", "d")], [("a", "b", "c")]]
    # a-b three times (2 extra), a-c and b-c twice (1 extra each)
    assert repeated_meetings(rounds) == 4


def test_a_player_twice_in_the_list_is_refused():
    with pytest.raises(ScoringError) as caught:
        seat_round(["a", "b", "c", "a"])
    assert caught.value.code == "twice"


def test_a_number_of_rounds_below_one_is_refused():
    with pytest.raises(ScoringError) as caught:
        plan_schedule(list(range(8)), 0)
    assert caught.value.field == "rounds"


def test_the_figures_cover_the_sizes_the_note_gives():
    figures = measure_seating(((16, 5), (24, 5)))
    assert [(p, r, repeats) for p, r, repeats, _ in figures] == [(16, 5, 0), (24, 5, 0)]


def test_the_figures_can_seat_one_round_at_a_time_as_when_players_come_and_go():
    figures = measure_seating(((16, 2), (12, 2)), one_round_at_a_time=True)
    assert [(p, r, repeats) for p, r, repeats, _ in figures] == [(16, 2, 0), (12, 2, 3)]


@settings(deadline=None, max_examples=40)
@given(
    count=st.integers(3, 32),
    rounds=st.integers(1, 4),
    allow_three=st.booleans(),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_every_present_player_sits_once_a_round_at_tables_of_the_right_sizes(
    count, rounds, allow_three, seed, data
):
    players = list(range(count))
    try:
        sizes = table_sizes(count, allow_three)
    except ScoringError:
        with pytest.raises(ScoringError):
            plan_schedule(players, rounds, seed=seed, allow_three=allow_three)
        return
    plan = plan_schedule(players, rounds, seed=seed, allow_three=allow_three)
    for tables in plan:
        assert seated_once(tables, players)
        assert sorted(len(t) for t in tables) == sorted(sizes)
    # and round after round with players coming and going, from the plan or without it
    history: list = []
    for planned in plan:
        present = data.draw(st.lists(st.integers(0, 45), unique=True, min_size=3, max_size=45))
        try:
            sizes = table_sizes(len(present), allow_three)
        except ScoringError:
            continue
        tables = seat_round(
            present,
            meetings(history),
            seed=seed,
            allow_three=allow_three,
            planned=data.draw(st.sampled_from([None, planned])),
        )
        assert seated_once(tables, present)
        assert sorted(len(t) for t in tables) == sorted(sizes)
        history.append(tables)
