"""Each score row keeps the player's running total in the game after that deal: written by
the services with the deal, moved by a correction or a deletion of an earlier deal, and
filled for the rows stored before (migration 0015)."""

from __future__ import annotations

import importlib
from decimal import Decimal

import pytest
from django.apps import apps

from scorekeeper import services
from scorekeeper.models import DealScore
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import make_club, start_evening

pytestmark = pytest.mark.django_db


def garde(players, taker: int, points: int) -> TarotDeal:
    seated = tuple(p.pk for p in players)
    return TarotDeal(
        seated=seated, taker=seated[taker], contract="garde", bouts=2, points=Decimal(points)
    )


def totals_by_deal(game) -> list[list[int]]:
    return [
        list(deal.scores.order_by("player_id").values_list("total", flat=True))
        for deal in game.deals.order_by("number")
    ]


def test_a_correction_and_a_deletion_move_the_totals_of_the_later_deals() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    first = services.deal_record(game=game, inputs=garde(players, 0, 50))
    services.deal_record(game=game, inputs=garde(players, 1, 60))
    # A garde made by 9 (204, -68 each), then one made by 19 (264, -88 each).
    assert totals_by_deal(game) == [[204, -68, -68, -68], [116, 196, -156, -156]]
    services.deal_update(deal=first, inputs=garde(players, 0, 30))  # failed by 11: -216, 72
    assert totals_by_deal(game) == [[-216, 72, 72, 72], [-304, 336, -16, -16]]
    services.deal_delete(deal=first)
    assert totals_by_deal(game) == [[-88, 264, -88, -88]]


def test_the_migration_fills_the_totals_of_the_rows_stored_before() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    services.deal_record(game=game, inputs=garde(players, 0, 50))
    services.deal_record(game=game, inputs=garde(players, 1, 60))
    kept = totals_by_deal(game)
    DealScore.objects.update(total=0)
    migration = importlib.import_module("scorekeeper.migrations.0016_deal_score_total")
    migration.fill_totals(apps, None)
    assert totals_by_deal(game) == kept
