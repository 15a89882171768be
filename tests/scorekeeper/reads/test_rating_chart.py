"""The ratings chart after deals saved tonight: the settled evenings' points kept, tonight's
added, and the same chart as drawn afresh from every player's whole history."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from scorekeeper import services
from scorekeeper.reads import figures_pages
from scorekeeper.reads.club_figures import ClubFigures, club_figures
from scorekeeper.reads.figures_pages import CHART_POINTS, ratings_page
from scorekeeper.scoring.ratings import PRIOR_MU, PRIOR_SIGMA, Z
from tests.scorekeeper.season_factories import World, deal, make_world, play_evening

pytestmark = pytest.mark.django_db

WEEKS = 12


@pytest.fixture
def world() -> World:
    """Ana always wins as taker, the others always lose: ratings worth a chart."""
    world = make_world(names=("Ana", "Ben", "Chloé", "Dan"))
    four = list(world.players.values())
    for week in range(WEEKS):
        deals = [deal(four, four[0], "garde", 2, 60)]
        deals += [deal(four, other, "garde", 2, 30) for other in four[1:]]
        play_evening(world, dt.date(2025, 1, 1) + dt.timedelta(days=7 * week), four, deals * 2)
    return world


def _names(world: World) -> dict[int, str]:
    return {player.pk: name for name, player in world.players.items()}


def _chart_walking_every_history(figures: ClubFigures, names: dict[int, str]) -> list:
    """The chart's series as read from each shown player's whole history, point by point."""
    page = ratings_page(figures, names)
    state = figures.state.ratings
    ids = [row.player_id for row in page.rows]

    def when(evening_id: int) -> tuple[dt.date, int]:
        return (figures.evening_date(evening_id) or dt.date.min, evening_id)

    played = sorted({when(p.evening_id) for i in ids for p in state.player(i).history})
    if len(played) > CHART_POINTS:
        step = (len(played) - 1) / (CHART_POINTS - 1)
        played = [played[round(k * step)] for k in range(CHART_POINTS)]
    series = []
    for row in page.rows:
        value = start = round(PRIOR_MU - Z * PRIOR_SIGMA)
        values = [start]
        for until in played:
            for point in state.player(row.player_id).history:
                if when(point.evening_id) <= until:
                    value = round(point.conservative)
            values.append(value)
            value = start
        series.append((row.name, values))
    return series


def _series(page: figures_pages.RatingsPage) -> list:
    assert page.chart is not None
    return [(series.name, list(series.values)) for series in page.chart.series]


def test_deals_saved_tonight_extend_the_chart_to_the_one_drawn_afresh(world: World) -> None:
    four = list(world.players.values())
    tonight = play_evening(world, dt.date(2025, 6, 1), four, [deal(four, four[0], "garde", 2, 60)])
    game = tonight.games.get()
    names = _names(world)
    with translation.override("en"):
        for number, taker in enumerate([*four, four[0]]):
            ratings_page(club_figures(world.club.pk), names)  # seen: the next one extends it
            inputs = deal(four, taker, "petite", 1, 30 + 5 * number)
            services.deal_record(game=game, inputs=inputs, created_by=None)
            extended = ratings_page(club_figures(world.club.pk), names)
            assert extended.worth_showing
            assert _series(extended) == _chart_walking_every_history(
                club_figures(world.club.pk), names
            )
            cache.clear()  # drawn afresh: the settled evenings' part of the chart too
            afresh = ratings_page(club_figures(world.club.pk), names)
            assert _series(extended) == _series(afresh)
            assert extended.chart == afresh.chart
            assert [row.url for row in extended.rows] == [
                reverse("player", args=[world.club.pk, row.player_id]) for row in afresh.rows
            ]
