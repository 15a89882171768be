"""The season chart just after deals saved tonight: the settled nights' totals kept, tonight's
point added, and the same chart as drawn from every evening's points afresh."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.utils import translation

from scorekeeper import services
from scorekeeper.models import Season
from scorekeeper.reads import charts, periods, standings
from scorekeeper.reads.standings import SeasonStats
from scorekeeper.server import shared_cache
from tests.scorekeeper.season_factories import World, deal, make_world, play_evening

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Ben", "Chloé", "Dan", "Eve", "Fred", "Gus", "Hugo")


@pytest.fixture
def world() -> Iterator[World]:
    periods.clear_memo()
    world = make_world(names=NAMES)
    first = [world.players[name] for name in NAMES[:4]]
    second = [world.players[name] for name in NAMES[4:]]
    for week in range(5):
        day = dt.date(2025, 1, 2) + dt.timedelta(days=7 * week)
        play_evening(world, day, first, [deal(first, first[week % 4], "garde", 2, 40 + week)])
        if week % 2:  # two tables some nights
            play_evening(world, day, second, [deal(second, second[0], "petite", 1, 30)])
    yield world
    periods.clear_memo()


def _drawn_from_every_evening(stats: SeasonStats) -> list[tuple[str, list[int]]]:
    """Each player's total after each night, from the cumulative totals evening by evening."""
    last: dict[dt.date, int] = {}
    for index, evening in enumerate(stats.evenings):
        last[evening.date] = index
    totals = standings.cumulative_totals(stats.evenings, stats.points)
    return [
        (row.name, [0, *(totals[row.player_id][i] for i in last.values())]) for row in stats.rows
    ]


def _series(chart: charts.LineChart) -> list[tuple[str, list[int]]]:
    return [(series.name, list(series.values)) for series in chart.series]


def test_saves_at_two_tables_tonight_extend_the_chart_to_the_one_drawn_afresh(
    world: World, monkeypatch
) -> None:
    first = [world.players[name] for name in NAMES[:4]]
    second = [world.players[name] for name in NAMES[4:]]
    night = dt.date(2025, 3, 1)
    tables = [
        play_evening(world, night, first, [deal(first, first[1], "garde", 2, 50)]),
        play_evening(world, night, second, [deal(second, second[2], "garde", 2, 35)]),
    ]
    season = Season.objects.get(club=world.club)
    with translation.override("en"):
        charts.season_chart(standings.for_season(season))  # the settled nights kept
        nightly = charts._nightly
        walked: list[int] = []
        monkeypatch.setattr(
            charts,
            "_nightly",
            lambda evenings, points: walked.append(1) or nightly(evenings, points),
        )
        for number in range(4):
            table = tables[number % 2]
            seated = first if number % 2 == 0 else second
            inputs = deal(seated, seated[number % 4], "petite", 1, 25 + 10 * number)
            services.deal_record(game=table.games.get(), inputs=inputs, created_by=None)
            stats = standings.for_season(season)
            assert stats.base is not None and not stats.shared  # tonight added to kept sums
            extended = charts.season_chart(stats)
            assert _series(extended) == _drawn_from_every_evening(stats)
            assert len(extended.x_labels) == 1 + 6  # the start, five weeks and tonight
            shared_cache.forget_local()
            cache.clear()  # drawn afresh: everything added up again
            afresh = charts.season_chart(standings.for_season(season))
            assert _series(extended) == _series(afresh)
        assert walked == [1, 1, 1, 1]  # once per fresh start: never after a save
