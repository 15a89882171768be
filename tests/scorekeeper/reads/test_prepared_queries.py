"""Queries compiled once and run again with other values give what Django's own give."""

from __future__ import annotations

import datetime as dt

import pytest

from scorekeeper.models import DealScore, Evening
from scorekeeper.reads import deal_facts, nights, tallies
from scorekeeper.reads.prepared import Prepared
from scorekeeper.reads.tallies import TAROT
from tests.scorekeeper.season_factories import World, hand_computed_season, make_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    world = make_world()
    hand_computed_season(world)
    return world


def test_one_evenings_aggregation_gives_the_rows_of_the_grouped_query(
    world: World, django_assert_num_queries
) -> None:
    for evening in Evening.objects.filter(club=world.club):
        scores = DealScore.objects.filter(deal__game__kind=TAROT, deal__game__evening=evening)
        expected = list(tallies._lines(scores))
        with django_assert_num_queries(1):
            got = tallies._evening_lines(evening.pk, TAROT)
        key = sorted  # the database's order of groups is not the point
        assert key(map(repr, got)) == key(map(repr, expected))


def test_the_nights_of_every_shape_of_range_are_the_grouped_querys(world: World) -> None:
    club = world.club.pk
    ranges = [
        (None, None),
        (dt.date(2025, 1, 1), None),
        (None, dt.date(2025, 2, 7)),
        (dt.date(2025, 1, 1), dt.date(2025, 2, 28)),
        (dt.date(2030, 1, 1), None),  # no evening
    ]
    for start, end in ranges:
        for escopette in (False, True):
            direct = nights._nights(
                list(nights._query(nights._evenings(club, start, end), escopette=escopette))
            )
            assert nights.nights(club, start, end, escopette=escopette) == direct


def test_the_latest_date_splits_the_settled_evenings_from_tonights(world: World) -> None:
    found = nights.nights(world.club.pk, None, None, escopette=True)
    assert found.latest == dt.date(2025, 3, 1)  # the evening of L'escopette
    assert (found.settled.count, found.tonight.count) == (3, 1)
    assert found.tonight.escopette == 1 and found.settled.escopette == 0
    tonight = Evening.objects.get(club=world.club, date=found.latest)
    assert found.tonight_evening() == (tonight.pk, tonight.created_at, tonight.version, "")


def test_a_stand_in_missing_from_the_query_is_refused() -> None:
    prepared = Prepared(lambda club: Evening.objects.filter(club_id=1).values("pk"), 2_000_000_099)
    with pytest.raises(ValueError, match="2000000099"):
        prepared.rows(5)


def test_one_evenings_deals_read_alone_are_those_read_with_others(world: World) -> None:
    marks = deal_facts.evening_marks(world.club.pk, None, None)
    together = deal_facts._read(marks)
    for mark in marks:
        assert deal_facts._read([mark]) == {mark.evening_id: together[mark.evening_id]}
    assert sum(len(facts) for facts in together.values()) == 7
