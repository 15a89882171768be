"""Each score row keeps its running total (``DealScore.total``), filled here for the rows
stored before; from now on the services keep it (services.deal_totals)."""

from __future__ import annotations

import itertools
from typing import Any

from django.db import migrations, models

from scorekeeper.scoring.tarot import line_totals


def fill_totals(apps: Any, schema_editor: Any) -> None:
    DealScore = apps.get_model("scorekeeper", "DealScore")
    rows = (
        DealScore.objects.order_by("deal__game_id", "deal__number", "pk")
        .values_list("pk", "deal__game_id", "deal_id", "player_id", "score")
        .iterator(chunk_size=5000)
    )
    for _game, game_rows in itertools.groupby(rows, key=lambda row: row[1]):
        lines = list(game_rows)
        totals = line_totals([(deal, player, score) for _pk, _g, deal, player, score in lines])
        DealScore.objects.bulk_update(
            [DealScore(pk=line[0], total=total) for line, total in zip(lines, totals)],
            ["total"],
            batch_size=1000,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0015_costly_action"),
    ]

    operations = [
        migrations.AddField(
            model_name="dealscore",
            name="total",
            field=models.IntegerField(default=0, verbose_name="total"),
        ),
        migrations.RunPython(fill_totals, migrations.RunPython.noop, elidable=True),
    ]
