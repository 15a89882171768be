"""A game's score sheet: a row per deal, each player's score and running total, the marks."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from scorekeeper import services
from scorekeeper.models import Deal, Game
from scorekeeper.reads.game_sheets import game_sheet
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import make_club, start_evening
from tests.scorekeeper.season_factories import (
    deal,
    make_world,
    passed,
    play_escopette,
    play_evening,
    stakes,
)

pytestmark = pytest.mark.django_db


def three_deals() -> Game:
    """Ana's garde made by 4 (58 a head), everyone passed, Ben's petite failed by 3 (28)."""
    world = make_world()
    table = list(world.players.values())[:4]
    ana, ben = table[0], table[1]
    evening = play_evening(
        world,
        dt.date(2025, 1, 10),
        table,
        [deal(table, ana, "garde", 2, 45), passed(table), deal(table, ben, "petite", 1, 48)],
    )
    return evening.games.get()


def test_a_sheet_has_a_row_per_deal_with_each_score_and_the_running_totals() -> None:
    sheet = game_sheet(three_deals())
    ana, ben = sheet.players[0], sheet.players[1]
    assert [p.name for p in sheet.players] == ["Ana", "Ben", "Chloé", "Dan"]
    assert [row.deal.number for row in sheet.rows] == [1, 2, 3]
    assert [row.scores for row in sheet.rows] == [
        [174, -58, -58, -58],
        [0, 0, 0, 0],
        [28, -84, 28, 28],
    ]
    assert [row.totals for row in sheet.rows] == [
        [174, -58, -58, -58],
        [174, -58, -58, -58],
        [202, -142, -30, -30],
    ]
    assert sheet.totals == [202, -142, -30, -30]
    assert [(p.name, t) for p, t in sheet.totals_by_player][1] == ("Ben", -142)
    assert sheet.leader_total == 202
    assert sheet.rows[2].cells[1] == (-84, -142)
    assert (sheet.rows[0].deal.taker, sheet.rows[2].deal.taker, sheet.rows[1].deal.taker) == (
        ana,
        ben,
        None,
    )


def test_each_row_says_how_its_deal_went() -> None:
    sheet = game_sheet(three_deals())
    with translation.override("en"):
        results = [row.result for row in sheet.rows]
    assert results == ["made by 4", "everyone passed", "failed by 3"]
    assert [row.outcome.made if row.outcome else None for row in sheet.rows] == [True, None, False]
    assert sheet.rows[0].contract_label == str(dict(Deal.Contract.choices)["garde"])
    assert (sheet.winner, sheet.ended_after, sheet.problem) == (None, None, "")


def test_a_game_without_deals_has_every_total_at_zero() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    sheet = game_sheet(game)
    assert sheet.rows == []
    assert sheet.totals == [0, 0, 0, 0]
    assert sheet.leader_total == 0


def test_a_player_who_joined_later_has_no_score_in_the_rows_before() -> None:
    club, players = make_club(players=("Ana", "Ben", "Chloé", "Dan", "Eve"))
    ana, ben, eve = players[0], players[1], players[4]
    _evening, game = start_evening(club, players[:4])
    four = tuple(p.pk for p in players[:4])
    services.deal_record(
        game=game, inputs=TarotDeal(seated=four, taker=ana.pk, contract="garde", bouts=2, points=45)
    )
    services.seat_join(game=game, player=eve)
    five = (*four, eve.pk)
    services.deal_record(
        game=game,
        inputs=TarotDeal(
            seated=five, taker=ana.pk, contract="garde", bouts=2, points=45, partner=ben.pk
        ),
    )
    sheet = game_sheet(game)
    assert [p.name for p in sheet.players] == ["Ana", "Ben", "Chloé", "Dan", "Eve"]
    assert sheet.rows[0].scores == [174, -58, -58, -58, None]
    assert sheet.rows[0].cells[4] == (None, 0)
    assert sheet.rows[1].scores == [116, 58, -58, -58, -58]
    assert sheet.totals == [290, 0, -116, -116, -58]


def test_a_game_of_lescopette_is_marked_with_its_winner_and_the_deal_that_ended_it() -> None:
    world = make_world()
    ana, ben, chloe, dan = list(world.players.values())[:4]
    game = play_escopette(
        world,
        dt.date(2025, 2, 7),
        [ana, ben, chloe, dan],
        50,
        [
            stakes({ana: (20, 12), ben: (7, 6, 5), chloe: (4, 3, 2), dan: (1,)}),
            stakes({ana: (20,), ben: (12, 7, 6, 5, 4), chloe: (3, 2, 1)}),
        ],
    )
    sheet = game_sheet(game)
    assert sheet.totals == [52, 52, 15, 1]  # level in the lead: no winner yet
    assert (sheet.winner, sheet.ended_after) == (None, None)
    services.deal_record(
        game=game, inputs=stakes({ana: (7, 6, 5, 4, 3, 2, 1), ben: (20, 12)}), created_by=None
    )
    sheet = game_sheet(game)
    assert sheet.totals == [80, 84, 15, 1]
    assert (sheet.winner, sheet.ended_after, sheet.problem) == (ben, 3, "")


def test_stored_deals_the_rules_refuse_are_shown_as_stored_with_the_reason() -> None:
    world = make_world()
    ana, ben, chloe, dan = list(world.players.values())[:4]
    game = play_escopette(
        world,
        dt.date(2025, 2, 7),
        [ana, ben, chloe, dan],
        50,
        [
            stakes({ana: (20, 12), ben: (7, 6, 5), chloe: (4, 3, 2), dan: (1,)}),
            stakes({ana: (20,), ben: (12, 7, 6, 5, 4), chloe: (3, 2, 1)}),
        ],
    )
    # Behind the services' back, the first deal now ends the game: the second follows it.
    first = Deal.objects.get(game=game, number=1)
    first.stakes = {str(trump): ana.pk for trump in (20, 12, 7, 6, 5)} | {
        str(trump): ben.pk for trump in (4, 3, 2, 1)
    }
    first.save(update_fields=["stakes"])
    with translation.override("en"):
        sheet = game_sheet(game)
    assert "the game ended after deal 1, yet deal 2 follows" in sheet.problem
    assert sheet.winner is None
    assert sheet.totals == [52, 52, 15, 1]  # the stored scores, as they are


def test_a_sheet_takes_two_queries_however_many_deals() -> None:
    game = three_deals()
    with CaptureQueriesContext(connection) as queries:
        sheet = game_sheet(game)
        names = [
            (row.deal.dealer.name, row.deal.taker and row.deal.taker.name) for row in sheet.rows
        ]
    assert len(queries) == 2  # the seats; the deals with their scores and running totals
    assert names == [("Ana", "Ana"), ("Ben", None), ("Chloé", "Ben")]


def test_a_player_scored_but_no_longer_seated_keeps_a_column() -> None:
    game = three_deals()
    dan = game.seats.get(position=4).player
    game.seats.filter(player=dan).delete()  # as the admin might
    sheet = game_sheet(game)
    assert [p.name for p in sheet.players] == ["Ana", "Ben", "Chloé", "Dan"]
    assert sheet.totals[3] == -30


def test_a_sheet_says_its_problem_in_the_language_asking() -> None:
    game = three_deals()
    Deal.objects.filter(game=game, number=1).update(bouts=7)  # behind the services' back
    with translation.override("en"):
        english = game_sheet(game).problem
    with translation.override("fr"):
        french = game_sheet(game).problem
    assert english and french and english != french
