"""Evening ranking points: a club setting, off by default; the standings sort by them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from scorekeeper.models import Club
from scorekeeper.models.figures import TAROT
from scorekeeper.reads.evening_points import season_evening_points
from tests.scorekeeper.season_factories import (
    World,
    for_season_by_kind,
    hand_computed_season,
    make_world,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    world = make_world()
    hand_computed_season(world)
    return world


def _season_url(world: World) -> str:
    season = world.club.seasons.get(start=dt.date(2025, 1, 1))
    return f"/clubs/{world.club.pk}/seasons/{season.pk}/"


def test_a_new_club_gives_no_evening_points_and_its_standings_show_none(world, client):
    assert not world.club.evening_points
    client.force_login(world.member)
    with translation.override("en"):
        text = client.get(_season_url(world)).content.decode()
    assert "sort=evening_points" not in text


def test_the_owner_turns_them_on_and_the_standings_sort_by_them(world, client):
    client.force_login(world.owner)
    url = f"/clubs/{world.club.pk}/evening-points/"
    response = client.post(url, {"points-enabled": "on", "points-scale": "10, 6, 4"})
    assert response.status_code == 302
    club = Club.objects.get(pk=world.club.pk)
    assert club.evening_points and club.evening_points_scale == [10, 6, 4]
    with translation.override("en"):
        page = client.get(_season_url(world), {"sort": "evening_points"})
    text = page.content.decode()
    assert "sort=evening_points" in text
    rows = page.context["standings"]
    points = [float(row.points) for row in rows]  # the last column, as shown in English
    assert points == sorted(points, reverse=True)
    assert sum(points) == 2 * (10 + 6 + 4)  # two evenings in the season, four places or more


def test_places_come_from_each_evening_s_totals(world) -> None:
    season = world.club.seasons.get(start=dt.date(2025, 1, 1))
    stats = for_season_by_kind(season)[TAROT]
    points = season_evening_points(stats, (10, 6, 4, 2, 1))
    dan, chloe = world.players["Dan"].pk, world.players["Chloé"].pk
    assert points[dan] == 10 + (4 + 2) / 2  # 1st on his chelem night, then 3rd tied with Eve
    assert points[chloe] < points[dan]


def test_a_member_who_is_not_the_owner_is_refused_with_a_403(world, client):
    client.force_login(world.member)
    url = f"/clubs/{world.club.pk}/evening-points/"
    assert client.post(url, {"points-enabled": "on", "points-scale": "10"}).status_code == 403
    assert not Club.objects.get(pk=world.club.pk).evening_points


@pytest.mark.parametrize("scale", ["3, 5", "ten", "", "1.5", "-1", ",".join(["1"] * 21)])
def test_a_bad_scale_gets_a_message_next_to_the_field_and_nothing_is_saved(world, client, scale):
    client.force_login(world.owner)
    url = f"/clubs/{world.club.pk}/evening-points/"
    with translation.override("en"):
        response = client.post(url, {"points-enabled": "on", "points-scale": scale})
    assert response.status_code == 200
    assert response.context["points_form"].errors["scale"]
    club = Club.objects.get(pk=world.club.pk)
    assert not club.evening_points and club.evening_points_scale == [10, 6, 4, 2, 1]
