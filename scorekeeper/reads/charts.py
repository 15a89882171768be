"""The product's line charts: ``evening_chart`` (running totals through a game),
``season_chart`` (cumulative totals by evening) and ``player_chart`` (one player's season),
laid out by ``line_charts.line_chart``.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence

from django.utils import formats
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from scorekeeper.reads.game_sheets import GameSheet
from scorekeeper.reads.line_charts import LineChart, line_chart, number_label
from scorekeeper.reads.player_figures import PlayerFigures
from scorekeeper.reads.standings import SeasonStats
from scorekeeper.server.wording import short_date_format


def evening_chart(sheet: GameSheet) -> LineChart:
    """The running totals through a game, a line per player, from its score sheet.

    No query: everything comes from ``sheets.game_sheet(game)``.
    """
    names = [player.name for player in sheet.players]
    columns = [[0, *(row.totals[i] for row in sheet.rows)] for i in range(len(names))]
    x_labels = [_("start")] + [str(row.deal.number) for row in sheet.rows]
    ranked = sorted(zip(names, sheet.totals, strict=True), key=lambda nt: -nt[1])
    figures = ", ".join(f"{name} {number_label(total)}" for name, total in ranked)
    after = _("After deal %(number)s: %(figures)s.")
    return line_chart(
        chart_id=f"chart-game-{sheet.game.pk}",
        title=_("Running totals, deal by deal"),
        x_label=_("Deal"),
        y_label=_("Points"),
        x_labels=x_labels,
        x_tick_labels=["0", *x_labels[1:]],
        series=list(zip(names, columns, strict=True)),
        description=after % {"number": len(sheet.rows), "figures": figures} if sheet.rows else "",
    )


@functools.lru_cache(maxsize=4000)
def _date_in(date: dt.date, format_name: str, language: str | None) -> str:
    # A pure function of its arguments (no data read): a chart rebuilt after a save writes
    # the same dates again (about 14 µs each).
    return formats.date_format(date, format_name)


def _evening_labels(dates: Sequence[dt.date]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The x labels and tick labels of these evenings, in the current language (asked once)."""
    return _labels_in(tuple(dates), get_language(), short_date_format(), _("start"))


@functools.lru_cache(maxsize=64)
def _labels_in(
    dates: tuple[dt.date, ...], language: str | None, short: str, start: str
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    # As ``_date_in``: a chart drawn again after a save writes the same nights again.
    return (
        (start, *(_date_in(date, "SHORT_DATE_FORMAT", language) for date in dates)),
        ("", *(_date_in(date, short, language) for date in dates)),
    )


def _season_series(stats: SeasonStats) -> list[tuple[str, list[int]]]:
    """Each player's line: 0, then his total after each night (kept with the standings)."""
    zeros = [0] * len(stats.nights)
    return [(row.name, [0, *stats.lines.get(row.player_id, zeros)]) for row in stats.rows]


def season_chart(stats: SeasonStats, *, chart_id: str = "chart-season") -> LineChart:
    """Each player's cumulative total after each night of the season (the evenings of one
    date, a club night's tables, are one point); the season page keeps it in its fragment.
    The settled evenings' part of the drawing is kept under their name, the players' order
    and the language: after a deal saved tonight, only tonight's point is drawn."""
    name, settled = stats.settled
    order = ".".join(str(row.player_id) for row in stats.rows)
    # The start and the settled evenings' nights: drawn alike for every chart of that name.
    kept = (f"{name}.{get_language()}.{order}", 1 + settled)
    x_labels, ticks = _evening_labels(stats.nights)
    count = len(stats.evenings)
    figures = ", ".join(f"{row.name} {number_label(row.total)}" for row in stats.rows)
    after = ngettext(
        "After %(count)s evening: %(figures)s.", "After %(count)s evenings: %(figures)s.", count
    )
    return line_chart(
        chart_id=chart_id,
        title=_("Cumulative totals, evening by evening"),
        x_label=_("Evening"),
        y_label=_("Points"),
        x_labels=x_labels,
        x_tick_labels=ticks,
        series=_season_series(stats),
        description=after % {"count": count, "figures": figures} if count else "",
        kept=kept if name else ("", 0),
    )


def player_chart(
    figures: PlayerFigures, *, title: str | None = None, chart_id: str = "chart-player"
) -> LineChart:
    """One player's points added up evening by evening."""
    x_labels, ticks = _evening_labels([e.date for e in figures.evenings])
    return line_chart(
        chart_id=chart_id,
        title=title or _("Points through the season"),
        x_label=_("Evening"),
        y_label=_("Points"),
        x_labels=x_labels,
        x_tick_labels=ticks,
        series=[(figures.player.name, [0, *figures.cumulative()])],
    )
