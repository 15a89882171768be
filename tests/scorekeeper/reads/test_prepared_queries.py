"""Queries compiled once and run again with other values give what Django's own give."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db.models import F

from scorekeeper.models import DealScore, Evening
from scorekeeper.reads import deal_facts, evening_tallies, nights, tallies
from scorekeeper.reads.standings import club_seasons
from scorekeeper.reads.tallies import TAROT
from scorekeeper.server.prepared import Prepared
from scorekeeper.services import season_create
from tests.factories import make_member
from tests.scorekeeper.season_factories import World, hand_computed_season, make_world

pytestmark = pytest.mark.django_db

EVENING_VERSION = F("deal__game__evening__version")  # read with tonight's lines


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
        expected = tallies._as_read(list(tallies._lines(scores, version=EVENING_VERSION)))
        with django_assert_num_queries(1):
            got = tallies._evening_lines([evening.pk], TAROT)
        key = sorted  # the database's order of groups is not the point
        assert key(map(repr, got)) == key(map(repr, expected))


def test_a_few_evenings_aggregation_gives_the_rows_of_the_grouped_query(
    world: World, django_assert_num_queries
) -> None:
    evenings = Evening.objects.filter(club=world.club).order_by("date")
    ids = list(evenings.values_list("pk", flat=True))
    for few in (ids[:2], ids[1:], ids[::-1]):
        scores = DealScore.objects.filter(deal__game__kind=TAROT, deal__game__evening_id__in=few)
        expected = tallies._as_read(list(tallies._lines(scores, version=EVENING_VERSION)))
        with django_assert_num_queries(1):
            got = tallies._evening_lines(few, TAROT)
        assert sorted(map(repr, got)) == sorted(map(repr, expected))
        played = DealScore.objects.filter(deal__game__kind=TAROT, deal__game__evening_id__in=few)
        assert {line["evening"] for line in got} == set(
            played.values_list("deal__game__evening_id", flat=True)
        )


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
                list(nights._query(nights.club_evenings(club, start, end), escopette=escopette))
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


def test_one_nights_evenings_are_those_of_the_range_of_that_date(world: World) -> None:
    club = world.club.pk
    for date in Evening.objects.filter(club=world.club).values_list("date", flat=True):
        refs = evening_tallies.night_refs(club, date)
        assert refs == evening_tallies.evening_refs(club, start=date, end=date)
        assert refs and all(ref.date == date for ref in refs)
    assert evening_tallies.night_refs(club, dt.date(2030, 1, 1)) == []


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


def test_one_evening_s_facts_from_the_driver_s_rows_have_the_types_of_the_others(
    world: World,
) -> None:
    marks = deal_facts.evening_marks(world.club.pk, None, None)
    read = [deal_facts._read([mark]) for mark in marks]
    alone = [deal for facts in read for deals in facts.values() for deal in deals]
    assert len(alone) == 7  # one evening at a time: the raw rows (equal: the test above)
    assert all(type(deal.passed) is type(deal.paper) is bool for deal in alone)
    assert {type(deal.made) for deal in alone} <= {bool, type(None)}
    assert all(type(score) is int for deal in alone for score in deal.scores.values())


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
