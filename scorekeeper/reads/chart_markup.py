"""A line chart written as markup (its figure, SVG and data table) by ``LineChart`` itself
rather than template loops: charts are drawn again after every deal saved."""

from __future__ import annotations

import functools
import html
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils import formats
from django.utils.safestring import SafeString, mark_safe

# The drawing, in SVG user units: about one CSS pixel each on a phone 390 pixels wide.
WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 58, 8, 12, 40


@dataclass(frozen=True)
class Tick:
    position: float
    label: str
    anchor: str = "middle"


@dataclass(frozen=True)
class Series:
    name: str
    values: tuple[int, ...]
    css: str
    path: str
    last_x: float
    last_y: float

    @property
    def last(self) -> int:
        return self.values[-1] if self.values else 0


@dataclass(frozen=True)
class LineChart:
    id: str
    title: str
    description: str
    x_label: str
    y_label: str
    series: tuple[Series, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    zero_y: float
    x_labels: tuple[str, ...] = field(default=())
    table_html: SafeString = field(default=SafeString(""))
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def empty(self) -> bool:
        return not self.series or len(self.x_labels) < 2

    @property
    def axis_label_y(self) -> int:
        return self.height - 6

    @property
    def x_middle(self) -> float:
        return (self.left + self.right) / 2

    @property
    def legend(self) -> list[Series]:
        """The series from the highest last value down, as the lines end."""
        return sorted(self.series, key=lambda s: -s.last)

    # The drawing's repeated parts as markup, written here rather than by template loops: a
    # chart is drawn again after every deal saved (the sheet's, the season's), and a loop
    # over a dozen series costs the template engine more than the rest of the page.

    @functools.cached_property
    def grid_html(self) -> SafeString:
        """The y ticks' lines, then the zero line."""
        left, right = _svg_number(self.left), _svg_number(self.right)
        lines = "".join(
            f'<line x1="{left}" x2="{right}" y1="{y}" y2="{y}"/>'
            for y in (_svg_number(tick.position) for tick in self.y_ticks)
        )
        zero = _svg_number(self.zero_y)
        return mark_safe(
            f'{lines}<line class="chart-zero" x1="{left}" x2="{right}" y1="{zero}" y2="{zero}"/>'
        )

    @functools.cached_property
    def ticks_html(self) -> SafeString:
        """The y ticks' labels, then the x ticks'."""
        y_text = "".join(
            f'<text x="{_svg_number(self.left - 6)}" y="{_svg_number(tick.position)}"'
            f' dy="0.35em" text-anchor="end">{escape(tick.label)}</text>'
            for tick in self.y_ticks
        )
        below = _svg_number(self.bottom + 16)
        x_text = "".join(
            f'<text x="{_svg_number(tick.position)}" y="{below}"'
            f' text-anchor="{escape(tick.anchor)}">{escape(tick.label)}</text>'
            for tick in self.x_ticks
        )
        return mark_safe(y_text + x_text)

    @functools.cached_property
    def lines_html(self) -> SafeString:
        """Each series' line and the dot at its end."""
        return mark_safe(
            "".join(
                f'<path class="chart-line {escape(s.css)}" d="{s.path}"/>'  # numbers only
                f'<circle class="chart-dot {escape(s.css)}" cx="{_svg_number(s.last_x)}"'
                f' cy="{_svg_number(s.last_y)}" r="3"/>'
                for s in self.series
            )
        )

    @functools.cached_property
    def legend_html(self) -> SafeString:
        """The legend's items, from the highest last value down."""
        return mark_safe(
            "".join(
                '<li><svg class="chart-swatch" viewBox="0 0 28 10" focusable="false">'
                f'<line class="chart-line {escape(s.css)}" x1="1" y1="5" x2="27" y2="5"/></svg>'
                f'<span class="chart-legend-name">{escape(s.name)}</span>'
                f' <span class="chart-legend-value">'
                f"{escape(formats.number_format(s.last))}</span></li>"
                for s in self.legend
            )
        )

    @functools.cached_property
    def figure_html(self) -> SafeString:
        """The whole figure: its title, the drawing, the legend and the data table (the
        markup ``_line_chart.html`` had in its template, written here: the season's chart is
        drawn again after every deal saved)."""
        chart_id, title = escape(self.id), escape(self.title)
        return mark_safe(
            f"""
<figure class="chart" id="{chart_id}">
  <figcaption class="chart-title">{title}</figcaption>
  <svg class="chart-svg" viewBox="0 0 {_svg_number(self.width)} {_svg_number(self.height)}" \
role="img" aria-labelledby="{chart_id}-title {chart_id}-desc" focusable="false" \
xmlns="http://www.w3.org/2000/svg">
    <title id="{chart_id}-title">{title}</title>
    <desc id="{chart_id}-desc">{escape(self.description)}</desc>
    <g class="chart-grid" aria-hidden="true">
      {self.grid_html}
    </g>
    <g class="chart-text" aria-hidden="true">
      {self.ticks_html}
      <text class="chart-axis-title" x="{_svg_number(self.x_middle)}" \
y="{_svg_number(self.axis_label_y)}" text-anchor="middle">{escape(self.x_label)}</text>
      <text class="chart-axis-title" transform="translate(13 {_svg_number(self.top + 2)}) \
rotate(-90)" text-anchor="end">{escape(self.y_label)}</text>
    </g>
    <g class="chart-lines" aria-hidden="true">
      {self.lines_html}
    </g>
  </svg>
  <ul class="chart-legend" aria-hidden="true">
    {self.legend_html}
  </ul>
  <div class="visually-hidden"><table>
    <caption>{title}</caption>
    {self.table_html}
  </table></div>
</figure>
"""
        )


def escape(text: object) -> str:
    """Text made safe in markup, as ``django.utils.html.escape`` writes it (without its
    wrapper for lazy text, which cost a chart more than its escaping)."""
    return html.escape(str(text))


def _svg_number(value: float) -> str:
    """A coordinate as the drawing writes it (never localized: SVG reads a dot): Python's
    own writing of the number, as ``formats.localize(value, use_l10n=False)`` gives it for
    every coordinate a chart has (rounded to a tenth: never an exponent)."""
    text = str(value)
    if "e" in text or "E" in text:  # not a chart's, but written as Django would
        return str(formats.localize(value, use_l10n=False))
    return text


def table_rows(x_labels: Sequence[str], columns: Sequence[Sequence[int]]) -> str:
    """The data table's rows (one per x label; a cell per column)."""
    return "\n".join(
        f"<tr><th scope='row'>{escape(label)}</th>"
        + "".join(f"<td>{int(value)}</td>" for value in values)
        + "</tr>"
        for label, values in zip(x_labels, zip(*columns, strict=True), strict=False)
    )


def table_html(x_label: str, series: Sequence[Series], rows: str) -> SafeString:
    """The data table (rows: the x axis, from ``table_rows``; columns: the series)."""
    head = "".join(f"<th scope='col'>{escape(s.name)}</th>" for s in series)
    return mark_safe(
        f"<thead><tr><th scope='col'>{escape(x_label)}</th>{head}</tr></thead><tbody>{rows}</tbody>"
    )


def number_label(value: int) -> str:
    """A figure as a chart writes it in the current language (grouped from 10,000)."""
    return str(formats.number_format(value, force_grouping=abs(value) >= 10000))
