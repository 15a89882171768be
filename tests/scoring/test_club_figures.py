"""Point flow, partners, contract table, evening points, records and streaks of a season."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scorekeeper.scoring.club_figures import (
    ContractCell,
    check_scale,
    contract_table,
    evening_places,
    partnerships,
    point_flow,
)
from scorekeeper.scoring.club_records import made_streaks
from scorekeeper.scoring.errors import ScoringError
from tests.scoring.hand_season import (
    FIVE,
    FOUR,
    club_records,
    corrected,
    deal_flow,
    evening_totals,
    paper,
    passed,
    played,
    season,
)
from tools.bench.rating_club import synthetic_club


def totals(deals):
    result = {}
    for deal in deals:
        for player, score in deal.scores.items():
            result[player] = result.get(player, 0) + score
    return result


# Point flow


def test_each_defender_pays_a_lone_taker_all_of_his_loss():
    assert deal_flow({"A": 198, "B": -66, "C": -66, "D": -66}) == {
        ("B", "A"): 66,
        ("C", "A"): 66,
        ("D", "A"): 66,
    }


def test_at_five_each_defender_pays_two_thirds_to_the_taker_and_one_third_to_the_partner():
    flow = deal_flow({"A": 160, "B": 80, "C": -80, "D": -80, "E": -80})
    assert flow[("C", "A")] == Fraction(160, 3)
    assert flow[("C", "B")] == Fraction(80, 3)


def test_every_deal_s_flow_adds_up_exactly_to_each_player_s_score():
    for deal in season() + synthetic_club(evenings=4).deals:
        flow = deal_flow(deal.scores)
        for player, score in deal.scores.items():
            received = sum(v for (_, payee), v in flow.items() if payee == player)
            given = sum(v for (payer, _), v in flow.items() if payer == player)
            assert received - given == score


def test_a_player_s_net_flow_over_the_season_equals_his_total():
    flow = point_flow(season())
    everyone = totals(season())
    for player, total in everyone.items():
        assert sum(flow.net(player, other) for other in everyone) == total
    assert flow.deals == 9


def test_the_season_s_flow_is_the_sum_of_every_deal_s_flow():
    deals = season() + synthetic_club(evenings=4).deals
    expected: dict = {}
    for deal in deals:
        if deal.passed:
            continue
        for pair, points in deal_flow(deal.scores).items():
            expected[pair] = expected.get(pair, 0) + points
    flow = point_flow(deals)
    assert flow.paid == expected
    assert any(points.denominator > 1 for points in flow.paid.values())  # thirds at five


def test_the_net_flow_between_two_players_is_what_one_won_from_the_other():
    flow = point_flow(season()[:1])
    assert [flow.net("A", other) for other in "BCD"] == [66, 66, 66]
    assert flow.net("B", "A") == -66


def test_a_deal_whose_scores_do_not_sum_to_zero_is_left_out_of_the_flow_and_named():
    flow = point_flow([*season()[:1], paper(11, 1, {"A": 10, "B": -5})])
    assert flow.unbalanced == (11,)
    assert sum(flow.net("A", other) for other in "BCD") == 198


# Partners


def test_each_taker_s_deals_with_each_called_partner_are_counted():
    rows = {(row.taker, row.partner): row for row in partnerships(season())}
    assert set(rows) == {("A", "B"), ("D", "E"), ("A", "E")}
    assert (rows["A", "E"].deals, rows["A", "E"].made) == (1, 1)
    assert (rows["A", "B"].taker_points, rows["A", "B"].partner_points) == (120, 60)


# Contract x player


def test_the_contract_table_counts_takes_made_and_bouts_per_contract():
    table = contract_table(season())
    a = table["A"]
    assert (a.all.takes, a.all.made) == (5, 4)
    assert (a.by_contract["garde"].takes, a.by_contract["garde"].made) == (4, 3)
    assert a.by_contract["garde"].by_bouts == [0, 1, 3, 0]
    assert a.by_contract["petite"].by_bouts == [0, 1, 0, 0]
    assert a.seated == 9  # the passed deal counts, the paper deal does not
    assert a.take_share == pytest.approx(5 / 9)


def test_a_rate_is_hidden_below_the_minimum_number_of_takes():
    assert contract_table(season())["B"].all.rate is None  # 1 of 1 is not 100 %
    assert contract_table(season())["A"].all.rate == pytest.approx(4 / 5)
    assert ContractCell(takes=4, made=4).rate is None
    assert ContractCell(takes=5, made=4).rate == pytest.approx(0.8)


def test_the_minimum_number_of_takes_can_be_set():
    assert contract_table(season(), min_takes=1)["B"].all.rate == 1.0


# Evening points


def test_evening_totals_add_every_deal_of_the_evening_paper_ones_too():
    assert evening_totals(season())[1] == {"A": 197, "B": 1, "C": -99, "D": -99}


def test_tied_players_share_the_average_of_their_places_points():
    points = evening_places({"A": 100, "B": 100, "C": 0, "D": -200}, (10, 6, 4, 2, 1))
    assert points == {"A": 8, "B": 8, "C": 4, "D": 2}


def test_places_past_the_end_of_the_scale_get_nothing():
    points = evening_places({"A": 3, "B": 2, "C": 1, "D": 1}, (5, 3))
    assert points == {"A": 5, "B": 3, "C": 0, "D": 0}


@pytest.mark.parametrize("scale", [(), (3, 5), (5, -1), (5, 2.5), "10,6", tuple(range(30, 0, -1))])
def test_a_scale_that_is_empty_rising_negative_or_not_whole_is_refused(scale):
    with pytest.raises(ScoringError):
        check_scale(scale)


# Records and streaks


def test_the_biggest_deal_won_and_lost_point_at_their_deal():
    records = club_records(season())
    assert (records.biggest_win.player, records.biggest_win.score) == ("D", 1440)
    assert records.biggest_win.deal_id == 9
    assert (records.biggest_loss.player, records.biggest_loss.score) == ("A", -720)
    assert records.biggest_loss.deal_id == 9


def test_a_correction_of_an_old_deal_moves_the_record():
    fixed = corrected(season(), 9, played(9, 2, FIVE, "D", "garde", 1, 52, partner="E"))
    records = club_records(fixed)
    assert (records.biggest_win.player, records.biggest_win.deal_id) == ("A", 1)
    assert (records.biggest_loss.player, records.biggest_loss.deal_id) == ("C", 8)


def test_the_best_and_worst_evening_point_at_their_evening():
    records = club_records(season())
    assert (records.best_evening.player, records.best_evening.evening_id) == ("D", 2)
    assert records.best_evening.total == 1440 - 60 + 114 - 68
    assert (records.worst_evening.player, records.worst_evening.total) == ("C", -1304)


def test_a_run_of_made_contracts_skips_passed_and_paper_deals_and_ends_at_a_failure():
    deals = [
        played(1, 1, FOUR, "A", "petite", 1, 60),
        passed(2, 1, FOUR),
        paper(3, 1, {"A": -30, "B": 10, "C": 10, "D": 10}),
        played(4, 1, FOUR, "B", "petite", 1, 40),
        played(5, 1, FOUR, "A", "garde", 2, 50),
        played(6, 1, FOUR, "A", "garde", 2, 30),
        played(7, 1, FOUR, "A", "garde", 2, 50),
    ]
    streaks = made_streaks(deals)
    assert (streaks["A"].length, streaks["A"].first_deal_id, streaks["A"].last_deal_id) == (
        2,
        1,
        5,
    )
    assert "B" not in streaks
    assert club_records(deals).streaks == streaks


def test_chelems_and_petits_au_bout_are_counted_for_the_side_that_made_them():
    records = club_records(season())
    assert [(t.player, t.count, t.deal_ids) for t in records.chelems] == [
        ("D", 1, (9,)),
        ("E", 1, (9,)),
    ]
    petits = {t.player: t.deal_ids for t in records.petits_au_bout}
    assert petits == {"A": (4,), "C": (8,)}
    assert records.chelems[0].player == "D"


def test_no_deal_means_no_record():
    records = club_records([])
    assert records.biggest_win is None and records.best_evening is None
    assert records.streaks == {} and records.chelems == []
