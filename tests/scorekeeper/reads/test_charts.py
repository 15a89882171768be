"""Charts drawn on the server: numbers laid out as SVG, with a text equivalent."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from scorekeeper.models import Season
from scorekeeper.models.figures import TAROT
from scorekeeper.reads import charts, line_charts
from scorekeeper.reads.game_sheets import game_sheet
from tests.scorekeeper.season_factories import (
    deal,
    for_season_by_kind,
    fresh_memory,
    hand_computed_season,
    make_world,
    play_evening,
)


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    yield from fresh_memory()


@pytest.mark.parametrize(
    ("span", "step"), [(0, 1), (7, 2), (100, 20), (2280, 500), (3667, 1000), (45, 10)]
)
def test_ticks_go_by_round_steps(span: int, step: int) -> None:
    assert line_charts.nice_step(span) == step


def test_a_line_chart_lays_out_its_series_within_the_drawing() -> None:
    chart = charts.line_chart(
        chart_id="c",
        title="Totals",
        x_label="Deal",
        y_label="Points",
        x_labels=["start", "1", "2"],
        series=[("Ana", [0, 198, 173]), ("Ben", [0, -66, 9])],
    )
    assert [s.name for s in chart.legend] == ["Ana", "Ben"]
    assert chart.y_ticks[0].label == "-100"
    assert 0 in [int(t.label) for t in chart.y_ticks]
    for series in chart.series:
        points = [tuple(map(float, p.split(","))) for p in series.path[1:].split()]
        assert len(points) == 3
        for x, y in points:
            assert chart.left <= x <= chart.right
            assert chart.top <= y <= chart.bottom
    zero = next(t for t in chart.y_ticks if t.label == "0")
    assert zero.position == chart.zero_y
    ana = chart.series[0]
    assert ana.path.startswith(f"M{chart.left:.1f},{chart.zero_y:.1f}")
    assert "Ana 173, Ben 9" in chart.description


@pytest.mark.django_db
def test_the_evening_chart_draws_a_line_per_player_from_the_score_sheet() -> None:
    world = make_world()
    table = list(world.players.values())[:4]
    ana, ben = table[0], table[1]
    evening = play_evening(
        world,
        dt.date(2025, 1, 10),
        table,
        [deal(table, ana, "garde", 2, 49), deal(table, ben, "petite", 1, 51)],
    )
    sheet = game_sheet(evening.games.get())
    with translation.override("en"):
        chart = charts.evening_chart(sheet)
    assert [s.name for s in chart.series] == ["Ana", "Ben", "Chloé", "Dan"]
    assert [s.values for s in chart.series][:2] == [(0, 198, 173), (0, -66, 9)]
    assert chart.x_labels == ("start", "1", "2")
    assert chart.description == "After deal 2: Ana 173, Ben 9, Chloé -91, Dan -91."


@pytest.mark.django_db
def test_the_chart_renders_as_inline_svg_with_a_title_a_description_and_a_table() -> None:
    world = make_world()
    table = list(world.players.values())[:4]
    evening = play_evening(
        world, dt.date(2025, 1, 10), table, [deal(table, table[0], "garde", 2, 40.5)]
    )
    with translation.override("fr"):
        chart = charts.evening_chart(game_sheet(evening.games.get()))
        html = render_to_string("scorekeeper/common/_line_chart.html", {"chart": chart})
    svg = re.search(r"<svg class=\"chart-svg\".*?</svg>", html, re.S)
    assert svg is not None
    svg_text = svg.group(0)
    assert 'role="img"' in svg_text
    assert f'aria-labelledby="{chart.id}-title {chart.id}-desc"' in svg_text
    assert f'<title id="{chart.id}-title">' in svg_text
    assert "<desc" in svg_text
    # Coordinates are not localised (no decimal commas in French), colours are classes.
    assert not re.search(r'(x|y|cx|cy|x1|x2|y1|y2)="-?\d+,\d', svg_text)
    assert "stroke=" not in svg_text and "fill=" not in svg_text and "#" not in svg_text
    # The text equivalent: a table with a row per deal and a column per player.
    table_html = re.search(r'<div class="visually-hidden"><table>.*?</table>', html, re.S)
    assert table_html is not None
    assert table_html.group(0).count("<tr>") == 3  # the header, the start, deal 1
    assert "<td>-104</td>" in table_html.group(0) or "<td>-156</td>" in table_html.group(0)


@pytest.mark.django_db
def test_a_game_with_no_deal_draws_nothing() -> None:
    world = make_world()
    table = list(world.players.values())[:4]
    evening = play_evening(world, dt.date(2025, 1, 10), table, [])
    chart = charts.evening_chart(game_sheet(evening.games.get()))
    assert chart.empty
    assert render_to_string("scorekeeper/common/_line_chart.html", {"chart": chart}).strip() == ""


@pytest.mark.django_db
def test_the_season_chart_adds_up_each_players_evenings(client: Client) -> None:
    world = make_world()
    hand_computed_season(world)
    season = Season.objects.get(club=world.club, name="2025")
    with translation.override("en"):
        chart = charts.season_chart(for_season_by_kind(season)[TAROT])
    values = {s.name: s.values for s in chart.series}
    assert values["Ana"] == (0, -587, -313)
    assert values["Eve"] == (0, 0, 34)
    assert values["Dan"] == (0, -66 - 25 + 2280, 2223)
    assert chart.description.startswith("After 2 evenings: Dan 2223, Eve 34")
    client.force_login(world.member)
    page = client.get(
        f"/clubs/{world.club.pk}/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="en"
    ).text
    assert "Cumulative totals, evening by evening" in page
    assert page.count('class="chart-line series-') == 2 * 5  # a line and a legend swatch each


@pytest.mark.django_db
def test_the_tables_of_one_night_are_one_point_of_the_season_chart() -> None:
    names = ("Ana", "Ben", "Chloé", "Dan", "Eve", "Fred", "Gus", "Hugo")
    world = make_world(names=names)
    first, second = [world.players[n] for n in names[:4]], [world.players[n] for n in names[4:]]
    play_evening(world, dt.date(2025, 1, 3), first, [deal(first, first[0], "garde", 2, 60)])
    night = dt.date(2025, 1, 10)  # two tables that night
    play_evening(world, night, first, [deal(first, first[1], "petite", 1, 30)])
    play_evening(world, night, second, [deal(second, second[0], "garde", 2, 20)])
    season = Season.objects.get(club=world.club)
    stats = for_season_by_kind(season)[TAROT]
    assert len(stats.evenings) == 3
    with translation.override("en"):
        chart = charts.season_chart(stats)
    assert len(chart.x_labels) == 3  # the start, then two nights
    values = {s.name: s.values for s in chart.series}
    totals = {row.name: row.total for row in stats.rows}
    for name in names:
        assert values[name][-1] == totals[name]  # after the night, both tables counted
    assert values["Eve"][1] == 0 and values["Eve"][2] == totals["Eve"] != 0
    ana = stats.points[stats.evenings[0].evening_id, world.players["Ana"].pk]
    assert values["Ana"][1] == ana != 0
    assert chart.description.startswith("After 3 evenings:")


@pytest.mark.django_db
def test_more_players_than_colours_get_dashed_lines() -> None:
    chart = charts.line_chart(
        chart_id="c",
        title="t",
        x_label="x",
        y_label="y",
        x_labels=["a", "b"],
        series=[(f"P{i}", [0, i]) for i in range(10)],
    )
    assert chart.series[7].css == "series-7"
    assert chart.series[8].css == "series-0 series-dashed"


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
def test_the_drawing_escapes_the_names_and_writes_its_coordinates_with_a_dot(
    language: str,
) -> None:
    """The lines, ticks and legend are written by the chart, not by template loops."""
    with translation.override(language):
        chart = charts.line_chart(
            chart_id="c",
            title="t",
            x_label="x",
            y_label="y",
            x_labels=["start", "<1>", "2"],
            series=[("Ana <b>", [0, 12345, -70]), ('Ben "B"', [0, -3, 7])],
        )
        html = render_to_string("scorekeeper/common/_line_chart.html", {"chart": chart})
    assert "Ana &lt;b&gt;" in html and "<b>" not in html
    assert "Ben &quot;B&quot;" in html
    assert "&lt;1&gt;" in html
    svg = re.search(r"<svg class=\"chart-svg\".*?</svg>", html, re.S)
    assert svg is not None
    assert not re.search(r'(x|y|cx|cy|x1|x2|y1|y2)="-?\d+,\d', svg.group(0))
    assert svg.group(0).count("<path ") == 2 and svg.group(0).count("<circle ") == 2
    assert svg.group(0).count('<line x1="58"') == len(chart.y_ticks)
    legend = re.findall(r'<span class="chart-legend-name">(.*?)</span>', html)
    assert legend == ["Ben &quot;B&quot;", "Ana &lt;b&gt;"]  # the highest last value first
