from __future__ import annotations

import pytest

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.tarot import running_totals, totals

PLAYERS = ("Ana", "Ben", "Chloé", "Dan", "Eve")


def test_running_totals_add_up_after_each_deal():
    deals = [
        {"Ana": 198, "Ben": -66, "Chloé": -66, "Dan": -66},
        {"Ana": -25, "Ben": 75, "Chloé": -25, "Dan": -25},
    ]
    assert running_totals(PLAYERS[:4], deals) == [
        {"Ana": 198, "Ben": -66, "Chloé": -66, "Dan": -66},
        {"Ana": 173, "Ben": 9, "Chloé": -91, "Dan": -91},
    ]


def test_a_player_sitting_out_a_deal_keeps_his_total():
    deals = [
        {"Ana": 50, "Ben": -25, "Chloé": -25},
        {"Ben": 75, "Chloé": -25, "Dan": -25, "Eve": -25},
    ]
    assert running_totals(PLAYERS, deals) == [
        {"Ana": 50, "Ben": -25, "Chloé": -25, "Dan": 0, "Eve": 0},
        {"Ana": 50, "Ben": 50, "Chloé": -50, "Dan": -25, "Eve": -25},
    ]


def test_every_player_appears_in_seat_order():
    result = running_totals(["Dan", "Ana", "Ben"], [{"Ana": 2, "Ben": -1, "Dan": -1}])
    assert list(result[0]) == ["Dan", "Ana", "Ben"]


def test_totals_are_the_last_running_totals():
    deals = [{"Ana": 10, "Ben": -10}, {"Ana": -4, "Ben": 4}]
    assert totals(["Ana", "Ben"], deals) == {"Ana": 6, "Ben": -6}


def test_totals_before_any_deal_are_zero():
    assert totals(["Ana", "Ben", "Chloé"], []) == {"Ana": 0, "Ben": 0, "Chloé": 0}
    assert running_totals(["Ana", "Ben", "Chloé"], []) == []


def test_running_totals_accept_a_generator():
    assert running_totals([1, 2], ({1: n, 2: -n} for n in range(3)))[-1] == {1: 3, 2: -3}


@pytest.mark.parametrize(
    ("players", "deals", "field", "deal"),
    [
        (["Ana", "Ana"], [], "players", None),
        ("Ana", [], "players", None),
        (["Ana", "Ben"], [{"Zoe": 3}], "scores", 1),
        (["Ana", "Ben"], [{"Ana": 1, "Ben": -1}, {"Ana": 1.5}], "scores", 2),
        (["Ana", "Ben"], [{"Ana": True}], "scores", 1),
        (["Ana", "Ben"], [["Ana", 1]], "scores", 1),
        ([["Ana"], "Ben"], [], "players", None),
    ],
)
def test_running_totals_refuse_bad_input(players, deals, field, deal):
    with pytest.raises(ScoringError) as caught:
        running_totals(players, deals)
    assert (caught.value.field, caught.value.deal) == (field, deal)
