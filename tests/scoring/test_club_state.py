"""One extendable state gives the same figures as the figures computed over all the deals."""

from __future__ import annotations

import pickle
from dataclasses import replace

from scorekeeper.scoring.club_state import PARTS
from tests.scoring.hand_season import (
    FOUR,
    club_records,
    corrected,
    figures_state,
    played,
    same_as_replay,
    season,
)
from tools.bench.rating_club import synthetic_club


def test_the_state_over_the_hand_made_season_equals_each_figure_computed_alone():
    same_as_replay(figures_state(season()), season())


def test_a_state_extended_evening_by_evening_equals_the_state_of_all_the_deals():
    deals = season()
    first = figures_state([deal for deal in deals if deal.evening_id == 1])
    extended = pickle.loads(pickle.dumps(first))
    extended.advance([deal for deal in deals if deal.evening_id == 2])
    same_as_replay(extended, deals)
    same_as_replay(first, [deal for deal in deals if deal.evening_id == 1])


def test_a_synthetic_club_extended_by_its_last_evening_equals_its_full_state():
    deals = synthetic_club(players=8, evenings=12, deals_per_evening=20).deals
    last = deals[-1].evening_id
    state = figures_state([deal for deal in deals if deal.evening_id != last])
    state.advance([deal for deal in deals if deal.evening_id == last])
    same_as_replay(state, deals)


def test_a_corrected_old_deal_changes_the_records_and_the_ratings_after_it():
    before = figures_state(season())
    fixed = corrected(season(), 2, played(2, 1, FOUR, "B", "garde_contre", 3, 30))
    after = figures_state(fixed)
    assert before.records().streaks["B"].last_deal_id == 2
    assert "B" not in after.records().streaks
    assert after.ratings.player("B").mu < before.ratings.player("B").mu


def test_an_evening_split_across_calls_gives_the_same_figures_as_all_at_once():
    deals = season()
    state = figures_state([])
    for deal in deals:  # deal by deal, as tonight's deals are saved one by one
        state = state.advance([deal])
    same_as_replay(state, deals)


def test_a_state_read_back_and_advanced_leaves_the_one_it_was_read_from_as_it_was():
    deals = synthetic_club(players=8, evenings=12, deals_per_evening=20).deals
    half = [deal for deal in deals if deal.evening_id <= 6]
    state = figures_state(half)
    assert state.partners and state.contracts  # something to share by mistake
    pickle.loads(pickle.dumps(state)).advance([deal for deal in deals if deal.evening_id > 6])
    same_as_replay(state, half)


def test_a_tournament_s_tables_are_one_night_in_the_evening_records_across_a_settle():
    """Tournament 7: a table at evening 1, another at evening 4, after evening 3 is settled
    (B +528): A's night, 264 + 264, is level with B's evening and earlier, so it stands."""
    deals = [
        replace(played(1, 1, FOUR, "A", "garde", 2, 60), night=7),  # A +264
        played(2, 3, FOUR, "B", "garde_sans", 2, 60),  # B +528: the biggest deal
        replace(played(3, 4, FOUR, "A", "garde", 2, 60), night=7),  # A +264
    ]
    state = pickle.loads(pickle.dumps(figures_state(deals[:2]).settle())).advance(deals[2:])
    records = state.records()
    best = records.best_evening
    assert (best.player, best.total, best.evening_id, state.tournaments) == ("A", 528, 1, {7: 1})
    assert (records.biggest_win.player, records.biggest_win.deal_id) == ("B", 2)
    assert records == club_records(deals)


SETTLED = ("open_evenings", "firsts", "best_evening", "worst_evening", "best_at", "worst_at")


def test_each_part_advanced_alone_equals_that_part_of_the_whole_state():
    """A page keeps and advances its part of the state alone (``part``, ``parts=``)."""
    deals = synthetic_club(players=8, evenings=12, deals_per_evening=20).deals
    last = deals[-1].evening_id
    before = [deal for deal in deals if deal.evening_id != last]
    tonight = [deal for deal in deals if deal.evening_id == last]
    whole = figures_state(deals)
    for name, fields in PARTS.items():
        part = pickle.loads(pickle.dumps(figures_state(before).settle().part(name)))
        part.advance(tonight[:5], parts=(name,)).advance(tonight[5:], parts=(name,))
        assert part.deals == whole.deals
        for field in fields:
            if field == "ratings":
                assert part.ratings.table() == whole.ratings.table()
                assert part.ratings.quality == whole.ratings.quality
            elif field not in SETTLED:  # the evenings' records: records() below
                assert getattr(part, field) == getattr(whole, field), (name, field)
    records = figures_state(before).settle().part("records").advance(tonight, parts=("records",))
    assert records.records() == whole.records()
    flow = figures_state(before).part("flow").advance(tonight, parts=("flow",))
    assert (flow.point_flow(), flow.partnerships()) == (whole.point_flow(), whole.partnerships())
    assert flow.ratings.table() == [] and flow.contracts == {} and flow.biggest_win is None
