"""A chart's frame takes in every point: a point outside it redraws every point."""

from __future__ import annotations

from scorekeeper.reads import charts


def drawing(series: list[tuple[str, list[int]]], labels: list[str]) -> charts.LineChart:
    return charts.line_chart(
        chart_id="chart-test",
        title="Points",
        x_label="Evening",
        y_label="Points",
        x_labels=labels,
        series=series,
    )


def test_a_point_outside_the_frame_redraws_every_point() -> None:
    labels = ["start", "1", "2", "3"]
    small = drawing([("Ana", [0, 10, 20, 30])], labels)
    large = drawing([("Ana", [0, 10, 20, 3000])], labels)
    assert large == drawing([("Ana", [0, 10, 20, 3000])], labels)
    assert small.series[0].path.split()[1] != large.series[0].path.split()[1]
