"""A chart drawn again after its last point moved reuses the pieces already drawn, and comes
out exactly as a chart drawn from nothing."""

from __future__ import annotations

import random

from django.utils import translation

from scorekeeper.reads import charts
from scorekeeper.server import shared_cache


def drawing(series: list[tuple[str, list[int]]], labels: list[str]) -> charts.LineChart:
    return charts.line_chart(
        chart_id="chart-test",
        title="Points",
        x_label="Evening",
        y_label="Points",
        x_labels=labels,
        series=series,
    )


def test_a_chart_whose_last_point_moved_is_the_chart_drawn_from_nothing() -> None:
    chooser = random.Random(20)
    labels = [f"evening {n}" for n in range(101)]
    series = [
        (name, [0, *(chooser.randint(-400, 400) for _ in range(100))])
        for name in ("Ana", "Ben", "Chloé", "Dan")
    ]
    with translation.override("en"):
        drawing(series, labels)
        for _ in range(5):  # a deal saved tonight: the last evening's points move
            for _name, values in series:
                values[-1] += chooser.randint(-60, 60)
            kept = drawing(series, labels)
            shared_cache.forget_local()
            fresh = drawing(series, labels)
            assert kept == fresh
            assert [s.path for s in kept.series] == [s.path for s in fresh.series]
            assert kept.table() == fresh.table()


def test_a_point_outside_the_frame_redraws_every_point() -> None:
    labels = ["start", "1", "2", "3"]
    small = drawing([("Ana", [0, 10, 20, 30])], labels)
    large = drawing([("Ana", [0, 10, 20, 3000])], labels)
    shared_cache.forget_local()
    assert large == drawing([("Ana", [0, 10, 20, 3000])], labels)
    assert small.series[0].path.split()[1] != large.series[0].path.split()[1]
