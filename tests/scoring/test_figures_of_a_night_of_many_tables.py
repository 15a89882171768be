"""A deal saved at one table of a night of many is put at its place among the others' deals.

The club's order puts tonight's tables one after the other, so a deal saved at the first
table comes before deals already counted at the later ones. ``FiguresState.insert`` adds it
there, and every figure must then equal the figures of all the deals replayed in order: the
ratings, predictions and base-rate sums to the last bit, the records with their ties.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.scoring.club_figures import point_flow
from scorekeeper.scoring.club_state import FiguresState, extended
from scorekeeper.scoring.deal_facts import DealFacts, in_order
from scorekeeper.scoring.ratings import OutOfOrder
from tests.scoring.hand_season import paper, passed, played, same_as_replay

POOL = tuple(f"P{number:02}" for number in range(1, 31))
CONTRACTS = ("petite", "garde", "garde_sans", "garde_contre")


def ordinal(day: int, evening_id: int, number: int) -> int:
    """The club's order as the read side makes it: by day, evening, then deal number."""
    return (day * 1000 + evening_id) * 1000 + number


def a_deal(rng: random.Random, deal_id: int, evening_id: int, seated: tuple[str, ...]) -> DealFacts:
    """One deal at this table: mostly played (ties in scores are frequent), some passed, some
    on paper (a few of them with scores that do not add up to zero)."""
    kind = rng.random()
    if kind < 0.08:
        return passed(deal_id, evening_id, seated)
    if kind < 0.16:
        scores = {player: rng.choice((-40, -20, 0, 20, 40)) for player in seated[1:]}
        scores[seated[0]] = -sum(scores.values()) + (10 if rng.random() < 0.3 else 0)
        return paper(deal_id, evening_id, scores)
    taker = rng.choice(seated)
    partner = None
    if len(seated) == 5 and rng.random() < 0.8:
        partner = rng.choice(seated)
    bouts = rng.choice((1, 1, 2, 2, 3))
    petit = rng.choice(("", "", "", "attack", "defense"))
    return played(
        deal_id,
        evening_id,
        seated,
        taker,
        rng.choice(CONTRACTS),
        bouts,
        rng.choice((31, 41, 51, 56, 61)),
        partner=partner,
        petit_au_bout="attack" if petit == "defense" and bouts == 3 else petit,
        chelem=rng.choice(("",) * 12 + ("unannounced", "defense")),
    )


@st.composite
def nights(draw: st.DrawFn) -> dict:
    """Settled evenings, then tonight's tables, their deals saved in some order."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    players = list(POOL)
    rng.shuffle(players)
    settled = []
    settled_evenings = draw(st.integers(0, 2))
    for evening_id in range(1, settled_evenings + 1):
        seated = tuple(rng.sample(POOL, draw(st.integers(3, 5))))
        for number in range(1, draw(st.integers(0, 4)) + 1):
            deal = a_deal(rng, len(settled) + 1, evening_id, seated)
            settled.append(replace(deal, ordinal=ordinal(1, evening_id, number)))
    shared = draw(st.booleans())  # a player at two tables (a tournament's rounds)
    tables = []
    for index in range(draw(st.integers(2, 5))):
        seated = [players.pop() for _ in range(draw(st.integers(3, 5)))]
        if shared and index == 1:
            seated[0] = tables[0][0]
        tables.append(tuple(seated))
    lengths = [draw(st.integers(1, 5)) for _ in tables]
    order = draw(st.permutations([t for t, length in enumerate(lengths) for _ in range(length)]))
    views = draw(st.lists(st.booleans(), min_size=len(order), max_size=len(order)))
    first_evening = settled_evenings + 1
    saves = []
    numbers = [0] * len(tables)
    for table in order:  # deal ids are given in the order the deals are saved
        numbers[table] += 1
        evening_id = first_evening + table
        deal = a_deal(rng, len(settled) + len(saves) + 1, evening_id, tables[table])
        saves.append(replace(deal, ordinal=ordinal(2, evening_id, numbers[table])))
    return {"settled": settled, "saves": saves, "views": views, "shared": shared}


@settings(deadline=None, max_examples=300)
@given(nights())
def test_tonights_deals_inserted_as_saved_give_the_figures_of_a_replay(night: dict) -> None:
    settled = in_order(night["settled"])
    base = FiguresState().advance(settled).settle()
    same_as_replay(base, settled)
    done: list[DealFacts] = []
    state = None
    built_again = 0
    saved = []
    for index, deal in enumerate(night["saves"]):
        saved.append(deal)
        if not night["views"][index] and index < len(night["saves"]) - 1:
            continue  # nobody looked at the figures after this save
        deals = in_order(saved)
        taken_on = extended(state, done, deals) if state is not None else None
        if taken_on is None:
            built_again += 1
            taken_on = base.copy().advance(deals)
        done, state = deals, taken_on
        same_as_replay(state, settled + deals)
    unbalanced = any(point_flow([deal]).unbalanced for deal in night["saves"])
    if not night["shared"] and not unbalanced:
        assert built_again == 1  # only the first view: every later save was inserted


def test_a_deal_before_a_later_deal_of_one_of_its_players_is_refused_and_changes_nothing():
    seated = ("A", "B", "C", "D")
    first = replace(played(1, 1, seated, "A", "garde", 2, 51), ordinal=ordinal(2, 1, 1))
    later = replace(played(2, 2, seated, "B", "garde", 2, 51), ordinal=ordinal(2, 2, 1))
    state = FiguresState().settle().advance([later])
    before = state.copy()
    assert not state.insert(first)  # A, B, C and D played at table 2 after it
    same_as_replay(state, [later])
    assert state.ratings.table() == before.ratings.table()
    with pytest.raises(OutOfOrder):
        state.ratings.insert(first)


def test_a_deal_before_the_last_deal_of_its_own_evening_is_refused():
    seated = ("A", "B", "C", "D")
    second = replace(played(2, 1, seated, "A", "garde", 2, 51), ordinal=ordinal(2, 1, 2))
    first = replace(passed(1, 1, seated), ordinal=ordinal(2, 1, 1))
    state = FiguresState().settle().advance([second])
    assert not state.insert(first)
    same_as_replay(state, [second])


def test_no_deal_goes_among_the_settled_deals_nor_into_a_settled_evening():
    seated = ("A", "B", "C", "D")
    old = replace(played(1, 1, seated, "A", "garde", 2, 51), ordinal=ordinal(1, 1, 1))
    state = FiguresState().advance([old]).settle()
    earlier = replace(passed(2, 1, ("E", "F", "G")), ordinal=ordinal(1, 1, 0))
    same_evening = replace(passed(3, 1, seated), ordinal=ordinal(1, 1, 2))
    assert not state.insert(earlier)
    assert not state.insert(same_evening)
    same_as_replay(state, [old])


def test_a_corrected_or_deleted_deal_of_tonight_means_building_again():
    seated = ("A", "B", "C", "D")
    deals = [
        replace(played(n, 1, seated, "A", "garde", 2, 51), ordinal=ordinal(2, 1, n)) for n in (1, 2)
    ]
    state = FiguresState().settle().advance(deals)
    corrected = [deals[0], replace(deals[1], made=False)]
    assert extended(state, deals, corrected) is None
    assert extended(state, deals, deals[:1]) is None
    assert extended(state, deals, deals) is state
