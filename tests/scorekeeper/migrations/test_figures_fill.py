"""The read model's migration fills the rows the writes would have written, with its own
frozen copy of the computation (a migration never imports app code that changes later)."""

from __future__ import annotations

import datetime as dt
import importlib
from typing import Any

import pytest
from django.apps import apps
from django.db.models import F

from scorekeeper.models import Deal, EveningFigures, PlayerEvening
from scorekeeper.services.figures import refresh_figures
from tests.scorekeeper.season_factories import (
    deal,
    make_world,
    passed,
    play_escopette,
    play_evening,
    stakes,
)

fill = importlib.import_module("scorekeeper.migrations.0018_player_evening_figures").fill


def _rows() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    players = PlayerEvening.objects.values().order_by("evening_id", "kind", "player_id")
    evenings = EveningFigures.objects.values().order_by("evening_id", "kind")
    return (
        [{k: v for k, v in row.items() if k != "id"} for row in players],
        [{k: v for k, v in row.items() if k != "id"} for row in evenings],
    )


@pytest.mark.django_db
def test_the_migration_fills_the_rows_the_writes_keep() -> None:
    world = make_world()
    table = list(world.players.values())[:5]
    ana, ben, chloe, dan, eve = table
    play_evening(
        world,
        dt.date(2025, 1, 10),
        table,
        [
            deal(table, ana, "garde", 2, 45, partner=ben, petit_au_bout="attack"),
            passed(table),
            deal(table, ben, "petite", 1, 48, partner=eve, poignees=("simple",)),
            deal(table, chloe, "garde_sans", 3, 40, partner=dan, chelem="defense"),
        ],
    )
    won = play_escopette(
        world,
        dt.date(2025, 2, 7),
        [ana, ben, chloe, dan],
        50,
        [stakes({ana: (20, 12, 7, 6, 5), ben: (4, 3, 2, 1)})],
    )
    broken = play_escopette(
        world,
        dt.date(2025, 2, 8),
        [ana, ben, chloe, dan],
        100,
        [stakes({ana: (20, 12), ben: (7, 6, 5, 4, 3, 2, 1)})] * 2,
    )
    Deal.objects.filter(game=broken, number=2).update(number=-F("number"))  # out of the rules
    Deal.objects.filter(game=broken, number=1).update(stakes={"1": ana.pk})
    refresh_figures([won.evening_id, broken.evening_id])
    written = _rows()
    assert {row["kind"] for row in written[1]} == {"tarot", "escopette"}
    assert any(row["unreplayable"] for row in written[1])  # the broken game
    assert any(row["won"] for row in written[0]) and any(row["petit_won"] for row in written[0])
    PlayerEvening.objects.all().delete()
    EveningFigures.objects.all().delete()
    fill(apps, None)
    assert _rows() == written
