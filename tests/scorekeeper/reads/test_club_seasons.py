"""A club's seasons, read in one query, are the ones Django lists, in its order."""

from __future__ import annotations

import datetime as dt

import pytest

from scorekeeper.reads.standings import club_seasons
from scorekeeper.services import season_create
from tests.scorekeeper.season_factories import World, hand_computed_season, make_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    world = make_world()
    hand_computed_season(world)
    return world


def test_a_club_s_seasons_are_the_ones_django_lists_in_its_order(
    world: World, django_assert_num_queries
) -> None:
    season_create(club=world.club, name="Été", start=dt.date(2025, 7, 1), end=dt.date(2025, 8, 31))
    other = make_world(club="Les Autres")
    expected = list(world.club.seasons.all())
    assert len(expected) >= 2
    with django_assert_num_queries(1):
        got = club_seasons(world.club)
    assert [(s.pk, s.name, s.start, s.end) for s in got] == [
        (s.pk, s.name, s.start, s.end) for s in expected
    ]
    assert all(season.club is world.club for season in got)
    assert club_seasons(other.club) == list(other.club.seasons.all())
