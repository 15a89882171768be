"""Queries compiled once and run again with other values give what Django's own give."""

from __future__ import annotations

import datetime as dt

import pytest

from scorekeeper.models import DealScore, Evening
from scorekeeper.reads.standings import club_seasons
from scorekeeper.server.prepared import Prepared
from scorekeeper.services import season_create
from tests.factories import make_member
from tests.scorekeeper.season_factories import World, hand_computed_season, make_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    world = make_world()
    hand_computed_season(world)
    return world


def test_a_stand_in_missing_from_the_query_is_refused() -> None:
    prepared = Prepared(lambda club: Evening.objects.filter(club_id=1).values("pk"), 2_000_000_099)
    with pytest.raises(ValueError, match="2000000099"):
        prepared.rows(5)


def test_model_instances_come_as_the_querysets_own_with_their_related_objects_and_annotations(
    world: World, django_assert_num_queries
) -> None:
    from django.db.models import Count

    from scorekeeper.models import Game, Membership
    from scorekeeper.screens import access

    for evening in Evening.objects.filter(club=world.club):
        with django_assert_num_queries(1):
            (found,) = access._evening.objects(evening.pk)
            club_name = found.club.name  # read with it
        assert (found.pk, found.version, found.date, club_name) == (
            evening.pk,
            evening.version,
            evening.date,
            evening.club.name,
        )
        games = Game.objects.filter(evening=evening)
        for game in games:
            with django_assert_num_queries(1):
                (alone,) = access._game.objects(game.pk, evening.pk)
                assert (alone.pk, alone.evening.pk, alone.evening.club.pk) == (
                    game.pk,
                    evening.pk,
                    world.club.pk,
                )
            assert access._game.objects(game.pk, evening.pk + 1) == []  # not this evening's
    assert access._evening.objects(10**9) == []
    member = make_member(world.club)
    membership = Membership.objects.get(club=world.club, user=member)
    (found,) = access._membership.objects(world.club.pk, member.pk)
    assert (found.pk, found.role, found.club.name) == (membership.pk, "member", world.club.name)
    assert access._membership.objects(world.club.pk + 1, member.pk) == []
    counted = Prepared(
        lambda evening: Game.objects.filter(evening_id=evening).annotate(seated=Count("seats")),
        2_000_000_021,
    )
    some = Evening.objects.filter(club=world.club).first()
    assert [g.seated for g in counted.objects(some.pk)] == [
        g.seats.count() for g in Game.objects.filter(evening=some)
    ]


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


def test_raw_rows_are_the_rows_before_django_s_converters(world: World) -> None:
    evening = Evening.objects.filter(club=world.club).first()
    query = Prepared(
        lambda evening: (
            DealScore.objects.filter(deal__game__evening_id=evening)
            .order_by("pk")
            .values_list("deal_id", "player_id", "seated", "score")
        ),
        2_000_000_049,
    )
    raw, converted = query.raw_tuples(evening.pk), query.tuples(evening.pk)
    assert raw and [tuple(row) for row in raw] == converted  # 1 == True: same values
