"""Line charts drawn on the server as inline SVG: the numbers, laid out; no JavaScript.

``line_chart`` turns named series into everything the template needs: the paths, the axes,
their ticks and labels, a short description and a data table (the text equivalent for screen
readers). Colours come from CSS classes (``stats.css``), so both themes are right. Pieces of
drawings are kept by what they are drawn from (``pieces``). The charts of the product are
``charts``'; this module reads nothing but its arguments.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils import formats
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scorekeeper.server import shared_cache

# The drawing, in SVG user units: about one CSS pixel each on a phone 390 pixels wide.
WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 58, 8, 12, 40
COLOURS = 8  # .series-0 … .series-7 in stats.css; further series are dashed, then dotted
MAX_TICKS = 6


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
    key: str = ""  # set when the drawing may be cached: equal keys, equal drawings
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

    def table(self) -> SafeString:
        """The figures as an HTML table (rows: the x axis; columns: the series)."""
        return self.table_html

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
                f' <span class="chart-legend-value">{escape(formats.localize(s.last))}</span></li>'
                for s in self.legend
            )
        )


def _svg_number(value: float) -> str:
    """A coordinate as the drawing writes it (never localized: SVG reads a dot)."""
    return str(formats.localize(value, use_l10n=False))


# Pieces of drawings by what they are drawn from (pure): a chart redrawn reuses all but its last
# (the charts module keeps its axis labels here too).
BLOCK = 32
pieces = shared_cache.LocalMemo(8192)


def _table_rows(labels: tuple[str, ...], columns: tuple[tuple[int, ...], ...]) -> str:
    key = ("rows", labels, columns)
    text = pieces.get(key)
    if text is None:
        text = "\n".join(
            f"<tr><th scope='row'>{escape(label)}</th>"
            + "".join(f"<td>{int(value)}</td>" for value in values)
            + "</tr>"
            for label, values in zip(labels, columns, strict=False)
        )
        pieces.set(key, text)
    return text


def _table_html(x_label: str, x_labels: Sequence[str], series: Sequence[Series]) -> SafeString:
    head = "".join(f"<th scope='col'>{escape(s.name)}</th>" for s in series)
    columns = list(zip(*(s.values for s in series), strict=True)) if series else []
    blocks = range(0, min(len(x_labels), len(columns)), BLOCK)
    rows = "\n".join(
        _table_rows(tuple(x_labels[i : i + BLOCK]), tuple(columns[i : i + BLOCK])) for i in blocks
    )
    return mark_safe(
        f"<thead><tr><th scope='col'>{escape(x_label)}</th>{head}</tr></thead><tbody>{rows}</tbody>"
    )


def nice_step(span: float, ticks: int = MAX_TICKS) -> int:
    """A round step (1, 2, 5 × 10^n) giving at most ``ticks`` intervals over the span."""
    if span <= 0:
        return 1
    raw = span / max(ticks - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return max(1, int(factor * power))
    return max(1, int(10 * power))


def number_label(value: int) -> str:
    """A figure as a chart writes it in the current language (grouped from 10,000)."""
    return formats.number_format(value, force_grouping=abs(value) >= 10000)


@dataclass(frozen=True)
class _Frame:
    """Where values land in the drawing: ``count`` x positions, values from low to high."""

    count: int
    low: int
    high: int
    step: int  # between two ticks of the y axis

    def x_at(self, index: int) -> float:
        if self.count <= 1:
            return (LEFT + WIDTH - RIGHT) / 2
        return LEFT + (WIDTH - RIGHT - LEFT) * index / (self.count - 1)

    def y_at(self, value: float) -> float:
        bottom = HEIGHT - BOTTOM
        return bottom - (bottom - TOP) * (value - self.low) / (self.high - self.low)


def _frame(count: int, series: Sequence[tuple[str, Sequence[int]]]) -> _Frame:
    """The y range: zero and every value, widened to round steps (never empty)."""
    values = [v for _name, vs in series for v in vs] or [0]
    low, high = min(0, *values), max(0, *values)
    step = nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high == low:
        high = low + step
    return _Frame(count=count, low=low, high=high, step=step)


def _series_css(number: int) -> str:
    """A colour per series; past the colours, dashed lines, then dotted ones."""
    css = f"series-{number % COLOURS}"
    if number >= COLOURS:
        css += " series-dashed" if number < 2 * COLOURS else " series-dotted"
    return css


def _points(frame: _Frame, values: Sequence[int]) -> str:
    """The path's points, "x,y" each, drawn a block at a time (blocks already drawn are kept)."""
    blocks = []
    for start in range(0, len(values), BLOCK):
        chunk = tuple(values[start : start + BLOCK])
        key = ("points", frame, start, chunk)
        text = pieces.get(key)
        if text is None:
            text = " ".join(
                f"{frame.x_at(i):.1f},{frame.y_at(v):.1f}" for i, v in enumerate(chunk, start)
            )
            pieces.set(key, text)
        blocks.append(text)
    return " ".join(blocks)


def _draw(frame: _Frame, series: Sequence[tuple[str, Sequence[int]]]) -> list[Series]:
    drawn = []
    for number, (name, vs) in enumerate(series):
        points = _points(frame, vs)
        drawn.append(
            Series(
                name=name,
                values=tuple(vs),
                css=_series_css(number),
                path=f"M{points}" if points else "",
                last_x=round(frame.x_at(len(vs) - 1), 1) if vs else LEFT,
                last_y=round(frame.y_at(vs[-1]), 1) if vs else frame.y_at(0),
            )
        )
    return drawn


def _y_ticks(frame: _Frame) -> tuple[Tick, ...]:
    return tuple(
        Tick(position=round(frame.y_at(v), 1), label=number_label(v))
        for v in range(frame.low, frame.high + 1, frame.step)
    )


def _x_ticks(frame: _Frame, labels: Sequence[str]) -> tuple[Tick, ...]:
    """At most ``MAX_TICKS`` labels, spread evenly from the first x position to the last."""
    count = frame.count
    if not count:
        return ()
    shown = min(count, MAX_TICKS)
    indexes = sorted({round(k * (count - 1) / max(shown - 1, 1)) for k in range(shown)})
    return tuple(
        Tick(
            position=round(frame.x_at(i), 1),
            label=labels[i],
            anchor="end" if i == count - 1 and count > 1 else "middle",
        )
        for i in indexes
    )


def _description(x_labels: Sequence[str], drawn: Sequence[Series]) -> str:
    """Where the lines end, highest first: the chart in one sentence."""
    if not drawn:
        return ""
    last = x_labels[-1] if x_labels else ""
    return _("%(label)s: %(figures)s.") % {
        "label": last,
        "figures": ", ".join(
            f"{s.name} {number_label(s.last)}" for s in sorted(drawn, key=lambda s: -s.last)
        ),
    }


def line_chart(
    *,
    chart_id: str,
    title: str,
    x_label: str,
    y_label: str,
    x_labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[int]]],
    x_tick_labels: Sequence[str] | None = None,
    description: str = "",
) -> LineChart:
    """Lay out named series of numbers over the same x positions (one per x label)."""
    frame = _frame(len(x_labels), series)
    drawn = _draw(frame, series)
    tick_labels = list(x_tick_labels) if x_tick_labels is not None else list(x_labels)
    return LineChart(
        id=chart_id,
        title=title,
        description=description or _description(x_labels, drawn),
        x_label=x_label,
        y_label=y_label,
        series=tuple(drawn),
        x_ticks=_x_ticks(frame, tick_labels),
        y_ticks=_y_ticks(frame),
        zero_y=round(frame.y_at(0), 1),
        x_labels=tuple(x_labels),
        table_html=_table_html(x_label, x_labels, drawn),
    )
