"""A chart's figure drawn in Python (``LineChart.figure_html``) is the markup its template
drew, in every language, with names to escape, negative and large figures; and a chart whose
last point moved keeps its lines and table exactly as a chart drawn from nothing."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.test import override_settings
from django.utils import translation

from scorekeeper.reads import charts, line_charts


def squeezed(html: str) -> str:
    """The markup without the whitespace between its tags (the template's indentation)."""
    return re.sub(r">\s+<", "><", html.strip())


# The figure as ``_line_chart.html`` drew it before it was written in Python.
TEMPLATE_FIGURE = """{% load l10n %}
<figure class="chart" id="{{ chart.id }}">
  <figcaption class="chart-title">{{ chart.title }}</figcaption>
  {% localize off %}
  <svg class="chart-svg" viewBox="0 0 {{ chart.width }} {{ chart.height }}" role="img" aria-labelledby="{{ chart.id }}-title {{ chart.id }}-desc" focusable="false" xmlns="http://www.w3.org/2000/svg">
    <title id="{{ chart.id }}-title">{{ chart.title }}</title>
    <desc id="{{ chart.id }}-desc">{{ chart.description }}</desc>
    <g class="chart-grid" aria-hidden="true">
      {{ chart.grid_html }}
    </g>
    <g class="chart-text" aria-hidden="true">
      {{ chart.ticks_html }}
      <text class="chart-axis-title" x="{{ chart.x_middle }}" y="{{ chart.axis_label_y }}" text-anchor="middle">{{ chart.x_label }}</text>
      <text class="chart-axis-title" transform="translate(13 {{ chart.top|add:2 }}) rotate(-90)" text-anchor="end">{{ chart.y_label }}</text>
    </g>
    <g class="chart-lines" aria-hidden="true">
      {{ chart.lines_html }}
    </g>
  </svg>
  {% endlocalize %}
  <ul class="chart-legend" aria-hidden="true">
    {{ chart.legend_html }}
  </ul>
  <div class="visually-hidden"><table>
    <caption>{{ chart.title }}</caption>
    {{ chart.table_html }}
  </table></div>
</figure>
"""  # noqa: E501


def a_chart(**overrides: object) -> line_charts.LineChart:
    drawing: dict[str, object] = {
        "chart_id": "chart-season",
        "title": 'Points <après> & "guillemets"',
        "x_label": "Soirée",
        "y_label": "Points",
        "x_labels": ["start", "2 janv.", "9 janv.", "16 janv."],
        "series": [
            ("Zoé <b>", [0, 12_345, -250, 40]),
            ("Ben & Jerry", [0, -12_345, 250, -40]),
            ("O'Neil", [0, 0, 0, 0]),
        ],
        "description": "After 3 evenings: Zoé <b> 40.",
    }
    drawing.update(overrides)
    return charts.line_chart(**drawing)  # type: ignore[arg-type]


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
def test_the_figure_drawn_in_python_is_the_templates_markup(language: str) -> None:
    with translation.override(language):
        chart = a_chart()
        expected = Template(TEMPLATE_FIGURE).render(Context({"chart": chart}))
        drawn = render_to_string("scorekeeper/common/_line_chart.html", {"chart": chart})
    assert "stats.css" in drawn
    assert squeezed(drawn.split(">", 1)[1]) == squeezed(expected)


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
def test_a_figure_with_its_own_description_and_thousands_is_the_templates_markup(
    language: str,
) -> None:
    with translation.override(language), override_settings(USE_THOUSAND_SEPARATOR=True):
        chart = a_chart(description="", series=[("Ana", [0, 1_234, 99_999, -5_000])])
        expected = Template(TEMPLATE_FIGURE).render(Context({"chart": chart}))
        drawn = chart.figure_html
    assert squeezed(drawn) == squeezed(expected)


def test_names_and_titles_are_escaped_once() -> None:
    with translation.override("en"):
        figure = a_chart().figure_html
    assert "Zoé &lt;b&gt;" in figure and "<b>" not in figure
    assert "Ben &amp; Jerry" in figure
    assert "Points &lt;après&gt; &amp; &quot;guillemets&quot;" in figure


@override_settings(USE_THOUSAND_SEPARATOR=True)
def test_a_language_writes_the_figures_in_its_own_way_after_another() -> None:
    drawn = {}
    for language in ("en", "fr", "en"):  # remembered per language, never one's for another
        with translation.override(language):
            chart = a_chart(series=[("Ana", [0, 12_345])])
            drawn[language] = (chart.legend_html, chart.ticks_html)
    assert ">12,345<" in drawn["en"][0] and ">15,000<" in drawn["en"][1]
    assert ">12\xa0345<" in drawn["fr"][0] and ">15\xa0000<" in drawn["fr"][1]


def test_lines_and_tables_kept_before_the_last_point_are_those_drawn_from_nothing() -> None:
    labels = [str(n) for n in range(70)]  # more than two blocks of points and rows
    lines = [(name, [n * (k + 1) % 97 - 40 for n in range(70)]) for k, name in enumerate("ABC")]
    with translation.override("en"):
        a_chart(x_labels=labels, series=lines)
        for moved in (5, -7, 30):
            for _name, values in lines:
                values[-1] += moved
            kept = a_chart(x_labels=labels, series=lines)
            fresh = a_chart(x_labels=labels, series=lines)
            assert kept.figure_html == fresh.figure_html
            assert [s.path for s in kept.series] == [s.path for s in fresh.series]
    assert kept.table_html.count("<tr>") == 71  # the head and a row per label


def test_a_chart_of_one_point_and_an_empty_one_are_drawn() -> None:
    with translation.override("en"):
        one = a_chart(x_labels=["start"], series=[("Ana", [0])])
        empty = a_chart(x_labels=["start", "1"], series=[])
    assert one.series[0].path.startswith("M") and one.table_html.count("<tr>") == 2
    assert empty.empty
    assert render_to_string("scorekeeper/common/_line_chart.html", {"chart": empty}).strip() == ""
