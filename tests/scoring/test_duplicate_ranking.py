from __future__ import annotations

from decimal import Decimal

import pytest

from scorekeeper.scoring.duplicate import DuplicateError, HeldScore, duplicate_ranking

# 12 players A..L, 3 tables, 2 rounds, 1 deal a round: cases 1, 2, 3, each played twice.
#   round 1: table 1 case 1 A B C D | table 2 case 2 E F G H | table 3 case 3 I J K L
#   round 2: table 1 case 2 A I B J | table 2 case 3 C E D F | table 3 case 1 G K H L
# (seats 1..4 in that order). The scores, each deal summing to 0:
#   case 1: A 75 B -25 C -25 D -25 (A made it)  | G -105 K 35 H 35 L 35 (G failed)
#   case 2: E -54 F 162 G -54 H -54             | A -54 I 162 B -54 J -54 (the same)
#   case 3: I 56 J 56 K 56 L -168 (L failed)    | C -40 E -40 D -40 F 120 (F made it)
DEALS = [
    (1, 1, "ABCD", (75, -25, -25, -25)),
    (2, 2, "EFGH", (-54, 162, -54, -54)),
    (3, 3, "IJKL", (56, 56, 56, -168)),
    (2, 1, "AIBJ", (-54, 162, -54, -54)),
    (3, 2, "CEDF", (-40, -40, -40, 120)),
    (1, 3, "GKHL", (-105, 35, 35, 35)),
]
SCORES = [
    HeldScore(case, seat, table, player, score)
    for case, table, players, scores in DEALS
    for seat, (player, score) in enumerate(zip(players, scores, strict=True), 1)
]


def lines(method: str) -> list[tuple[str, int, Decimal, int, int, int]]:
    ranked, _ = duplicate_ranking(SCORES, method=method)
    return [(x.player, x.rank, x.figure, x.raw, x.held, x.best) for x in ranked]


def test_match_points_ranked_by_hand():
    # Each (case, seat) held twice: 2 for the better score, 1 each for a tie, at most 2.
    #   A: case 1 seat 1, 75 beats -105: 2; case 2 seat 1, -54 ties E: 1 -> 3 of 4 = 75 %
    #   B: -25 < K 35: 0; -54 ties G: 1 -> 25 %      C: -25 < H 35, -40 < I 56 -> 0 %
    #   D: -25 < L 35, -40 < K 56 -> 0 %            E: ties A, -40 < J 56 -> 25 %
    #   F: 162 ties I, 120 beats L -168 -> 75 %     G: ties B, -105 < A 75 -> 25 %
    #   H: ties J, 35 beats C -25 -> 75 %           I: 56 beats C -40, ties F -> 75 %
    #   J: 56 beats E -40, ties H -> 75 %           K: beats D, beats B -> 100 %
    #   L: -168 < F 120, 35 beats D -25 -> 50 %
    # Ties on the figure go to the sum of scores: F 282, I 218, A 21, J 2, H -19; B -79,
    # E -94, G -159. C and D tie on all three (0 %, -65, best 0): both 11th, by name.
    # Best = (case, seat) where no one did better: A 2, B 1, C 0, D 0, E 1, F 2, G 1, H 2,
    # I 2, J 2, K 2, L 1.
    assert lines("match_points") == [
        ("K", 1, Decimal("100.00"), 91, 2, 2),
        ("F", 2, Decimal("75.00"), 282, 2, 2),
        ("I", 3, Decimal("75.00"), 218, 2, 2),
        ("A", 4, Decimal("75.00"), 21, 2, 2),
        ("J", 5, Decimal("75.00"), 2, 2, 2),
        ("H", 6, Decimal("75.00"), -19, 2, 2),
        ("L", 7, Decimal("50.00"), -133, 2, 1),
        ("B", 8, Decimal("25.00"), -79, 2, 1),
        ("E", 9, Decimal("25.00"), -94, 2, 1),
        ("G", 10, Decimal("25.00"), -159, 2, 1),
        ("C", 11, Decimal("0.00"), -65, 2, 0),
        ("D", 11, Decimal("0.00"), -65, 2, 0),
    ]


def test_scores_against_the_mean_ranked_by_hand():
    # One other holder each time, so the mean of the others is his score:
    #   case 1: A 75+105 = 180, G -180; B -25-35 = -60, K +60; C -60, H +60; D -60, L +60
    #   case 2: every seat a tie: 0
    #   case 3: I 56+40 = 96, C -96; J 96, E -96; K 96, D -96; L -168-120 = -288, F +288
    # Sums: F 288, A 180, K 156, I 96 (raw 218), J 96 (raw 2), H 60, B -60, E -96,
    # C and D -156 (raw -65, best 0: both 9th), G -180, L -228.
    assert [(x[0], x[1], x[2]) for x in lines("mean")] == [
        ("F", 1, Decimal("288.00")),
        ("A", 2, Decimal("180.00")),
        ("K", 3, Decimal("156.00")),
        ("I", 4, Decimal("96.00")),
        ("J", 5, Decimal("96.00")),
        ("H", 6, Decimal("60.00")),
        ("B", 7, Decimal("-60.00")),
        ("E", 8, Decimal("-96.00")),
        ("C", 9, Decimal("-156.00")),
        ("D", 9, Decimal("-156.00")),
        ("G", 11, Decimal("-180.00")),
        ("L", 12, Decimal("-228.00")),
    ]


def test_each_score_is_compared_with_the_others_of_its_case_and_seat():
    # One (case, seat) at four tables: 30, 10, 10, -20.
    held = [HeldScore(5, 2, t, p, s) for t, p, s in ((1, "W", 30), (2, "X", 10), (3, "Y", 10),
                                                     (4, "Z", -20))]  # fmt: skip
    _, points = duplicate_ranking(held, method="match_points")
    # 30 beats three: 6; 10 beats -20 and ties 10: 3; -20 beats none: 0.
    assert [(r.held.player, r.others, r.figure) for r in points] == [
        ("W", 3, Decimal("6.00")), ("X", 3, Decimal("3.00")),
        ("Y", 3, Decimal("3.00")), ("Z", 3, Decimal("0.00")),
    ]  # fmt: skip
    ranked, against = duplicate_ranking(held, method="mean")
    # 30 - (10 + 10 - 20) / 3 = 30; 10 - (30 + 10 - 20) / 3 = 3.33; -20 - 50 / 3 = -36.67
    assert [r.figure for r in against] == [
        Decimal("30.00"), Decimal("3.33"), Decimal("3.33"), Decimal("-36.67"),
    ]  # fmt: skip
    assert [(x.player, x.rank) for x in ranked] == [("W", 1), ("X", 2), ("Y", 2), ("Z", 4)]


def test_a_player_with_nothing_compared_yet_stands_at_half_the_match_points():
    ranked, results = duplicate_ranking([HeldScore(1, 1, 1, "A", 40)], method="match_points")
    assert (ranked[0].figure, ranked[0].best, results[0].others) == (Decimal(50), 0, 0)
    ranked, _ = duplicate_ranking([HeldScore(1, 1, 1, "A", 40)], method="mean")
    assert ranked[0].figure == 0


def test_names_order_the_players_who_tie_on_everything():
    held = [HeldScore(1, 1, 1, 7, 10), HeldScore(1, 1, 2, 3, 10)]
    ranked, _ = duplicate_ranking(held, method="mean", names={7: "Anne", 3: "Zoé"})
    assert [(x.player, x.rank) for x in ranked] == [(7, 1), (3, 1)]


def test_an_unknown_method_is_refused():
    with pytest.raises(DuplicateError) as refused:
        duplicate_ranking(SCORES, method="imps")
    assert (refused.value.field, refused.value.code) == ("method", "bad_method")
