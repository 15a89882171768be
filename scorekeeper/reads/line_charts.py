"""Line charts drawn on the server as inline SVG, no JavaScript: paths, axes, ticks, a
description and a data table for screen readers, coloured by CSS classes (``stats.css``)."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.translation import gettext as _

from scorekeeper.reads.chart_markup import (
    BOTTOM,
    HEIGHT,
    LEFT,
    RIGHT,
    TOP,
    WIDTH,
    LineChart,
    Series,
    Tick,
    number_label,
    table_html,
    table_rows,
)

KEPT_SECONDS = 86400
COLOURS = 8  # .series-0 … .series-7 in stats.css; further series are dashed, then dotted
MAX_TICKS = 6
Named = Sequence[tuple[str, Sequence[int]]]  # series: each a name and its values


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
    low = min((min(vs) for _name, vs in series if vs), default=0)
    high = max((max(vs) for _name, vs in series if vs), default=0)
    low, high = min(0, low), max(0, high)
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


def _points(frame: _Frame, xs: Sequence[str], values: Sequence[int]) -> str:
    """The path's points, "x,y" each (``xs``: the x positions, written once for all lines)."""
    return " ".join([f"{x},{frame.y_at(v):.1f}" for x, v in zip(xs, values, strict=False)])


def _draw(frame: _Frame, series: Named, xs: list[str], kept: list[str], start: int) -> list[Series]:
    """The lines; ``kept``: each line's points before ``start``, already written."""
    drawn = []
    for number, (name, vs) in enumerate(series):
        points = " ".join(filter(None, [kept[number], _points(frame, xs[start:], vs[start:])]))
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
    """The y axis's ticks, labelled as the language writes numbers."""
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
    series: Named,
    x_tick_labels: Sequence[str] | None = None,
    description: str = "",
    kept: tuple[str, int] = ("", 0),
) -> LineChart:
    """Lay out named series of numbers over the same x positions (one per x label). With
    ``kept`` (a name, and a count only with a name): the lines' first positions and the
    table's first rows are the same for every chart of that name; drawn once for the frame,
    kept in Django's cache."""
    name, start = kept
    frame = _frame(len(x_labels), series)
    xs = [f"{frame.x_at(i):.1f}" for i in range(max((len(vs) for _n, vs in series), default=0))]
    heads = [values[:start] for _name, values in series]
    # The name digested: it lists the players, past any cache's key length (memcached's 250).
    named = hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()
    key = f"chart.{named}.{frame.count}.{frame.low}.{frame.high}"
    before: tuple[list[str], str] | None = cache.get(key) if start else None
    if before is None:
        before = ([_points(frame, xs, vs) for vs in heads], table_rows(x_labels[:start], heads))
        if start:
            cache.set(key, before, KEPT_SECONDS)
    drawn = _draw(frame, series, xs, before[0], start)
    rest = table_rows(x_labels[start:], [s.values[start:] for s in drawn])
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
        table_html=table_html(x_label, drawn, "\n".join(filter(None, [before[1], rest]))),
    )
