from __future__ import annotations

import pytest

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import (
    ESCOPETTE_PLAYERS,
    ESCOPETTE_TARGETS,
    STAKE_TRUMPS,
    EscopetteDeal,
    escopette_game,
    escopette_winner,
    score_escopette_deal,
)

PLAYERS = ("Ana", "Ben", "Chloé", "Dan")


def stakes(**winners: str) -> EscopetteDeal[str]:
    """Stake trumps to Ana unless given: stakes(t12="Ben")."""
    given = {int(key[1:]): name for key, name in winners.items()}
    return EscopetteDeal({trump: given.get(trump, "Ana") for trump in STAKE_TRUMPS})


def spread(ana: tuple[int, ...], ben: tuple[int, ...], chloe: tuple[int, ...]) -> EscopetteDeal:
    """Ana, Ben and Chloé take the trumps listed; Dan takes the rest."""
    owner = {t: "Ana" for t in ana} | {t: "Ben" for t in ben} | {t: "Chloé" for t in chloe}
    return EscopetteDeal({t: owner.get(t, "Dan") for t in STAKE_TRUMPS})


def test_the_stake_trumps_make_60():
    assert sum(STAKE_TRUMPS) == 60
    assert ESCOPETTE_TARGETS == (50, 100)
    assert ESCOPETTE_PLAYERS == 4


def test_each_player_scores_the_stake_trumps_he_won():
    scores = score_escopette_deal(PLAYERS, spread((20, 1), (12, 2, 3), (4, 5)))
    assert scores == {"Ana": 21, "Ben": 17, "Chloé": 9, "Dan": 13}
    assert sum(scores.values()) == 60


def test_a_player_who_won_no_stake_scores_0():
    assert score_escopette_deal(PLAYERS, stakes()) == {"Ana": 60, "Ben": 0, "Chloé": 0, "Dan": 0}


@pytest.mark.parametrize(
    "players",
    [
        ("Ana", "Ben", "Chloé"),
        ("Ana", "Ben", "Chloé", "Dan", "Eve"),
        ("Ana", "Ana", "Ben", "Dan"),
        "Anas",
    ],
)
def test_escopette_needs_four_different_players(players):
    with pytest.raises(ScoringError) as caught:
        score_escopette_deal(players, stakes())
    assert caught.value.field == "players"


@pytest.mark.parametrize(
    "the_stakes",
    [
        {t: "Ana" for t in STAKE_TRUMPS if t != 12},
        {**{t: "Ana" for t in STAKE_TRUMPS}, 8: "Ben"},
        {**{t: "Ana" for t in STAKE_TRUMPS}, 12: "Zoe"},
        {**{t: "Ana" for t in STAKE_TRUMPS if t != 20}, "20": "Ana"},
        ["Ana"] * 9,
    ],
)
def test_a_deal_must_give_each_of_the_nine_stakes_to_a_player(the_stakes):
    with pytest.raises(ScoringError) as caught:
        score_escopette_deal(PLAYERS, EscopetteDeal(the_stakes))
    assert caught.value.field == "stakes"


def test_the_game_ends_after_the_deal_where_a_player_reaches_the_target_alone_in_the_lead():
    deals = [spread((20, 12), (7, 6), (5, 4)), spread((20, 12), (7,), (1,))]
    result = escopette_game(PLAYERS, 50, deals)
    assert result.totals == {"Ana": 64, "Ben": 20, "Chloé": 10, "Dan": 26}
    assert result.winner == "Ana"
    assert result.ended_after == 2
    assert result.scores[0] == {"Ana": 32, "Ben": 13, "Chloé": 9, "Dan": 6}


def test_reaching_the_target_exactly_ends_the_game():
    result = escopette_game(PLAYERS, 50, [spread((20, 12, 7, 6, 5), (), ())])
    assert result.totals["Ana"] == 50
    assert (result.winner, result.ended_after) == ("Ana", 1)


def test_no_winner_before_anyone_reaches_the_target():
    result = escopette_game(PLAYERS, 100, [stakes(), spread((), (20,), ())])
    assert result.totals["Ana"] == 60
    assert (result.winner, result.ended_after) == (None, None)


def test_a_tie_at_the_top_means_another_deal():
    deals = [
        spread((20, 7), (12, 6, 5, 4, 3, 2, 1), ()),  # Ana 27, Ben 33
        spread((12, 6, 5), (7, 4, 3, 2, 1), ()),  # Ana 50, Ben 50, Dan 20: tied at the top
    ]
    result = escopette_game(PLAYERS, 50, deals)
    assert result.totals == {"Ana": 50, "Ben": 50, "Chloé": 0, "Dan": 20}
    assert (result.winner, result.ended_after) == (None, None)
    after = escopette_game(PLAYERS, 50, [*deals, stakes()])
    assert (after.winner, after.ended_after) == ("Ana", 3)


def test_a_deal_after_the_end_is_refused_naming_the_deal_and_the_winner():
    deals = [stakes(), stakes()]
    with pytest.raises(ScoringError) as caught:
        escopette_game(PLAYERS, 50, deals)
    error = caught.value
    assert (error.field, error.deal) == ("deal", 2)
    assert str(error) == "deal 2: deal: the game ended after deal 1 (Ana won)"


def test_a_bad_deal_in_a_game_names_its_number():
    with pytest.raises(ScoringError) as caught:
        escopette_game(PLAYERS, 100, [stakes(), EscopetteDeal({1: "Ana"})])
    assert (caught.value.field, caught.value.deal) == ("stakes", 2)


@pytest.mark.parametrize("target", [0, 60, 75, "50", 50.5, True, None])
def test_the_target_is_50_or_100(target):
    with pytest.raises(ScoringError) as caught:
        escopette_game(PLAYERS, target, [])
    assert caught.value.field == "target"


def test_a_game_with_no_deals_has_no_winner():
    result = escopette_game(PLAYERS, 100, [])
    assert result.totals == dict.fromkeys(PLAYERS, 0)
    assert (result.scores, result.winner, result.ended_after) == ([], None, None)


@pytest.mark.parametrize(
    ("totals", "target", "winner"),
    [
        ({"Ana": 50, "Ben": 49}, 50, "Ana"),
        ({"Ana": 49, "Ben": 10}, 50, None),
        ({"Ana": 70, "Ben": 70, "Dan": 3}, 50, None),
        ({"Ana": 60, "Ben": 101}, 100, "Ben"),
        ({}, 50, None),
    ],
)
def test_the_winner_is_alone_in_the_lead_at_or_above_the_target(totals, target, winner):
    assert escopette_winner(totals, target) == winner
