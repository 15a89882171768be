"""Seasons: the calendar year by itself, other date ranges by the owner."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Season
from scorekeeper.models.figures import TAROT
from scorekeeper.reads import standings
from scorekeeper.services import ServiceError
from tests.scorekeeper.season_factories import (
    World,
    deal,
    for_season_by_kind,
    make_world,
    play_evening,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    return make_world()


def four(world: World) -> list:
    return list(world.players.values())[:4]


def test_the_first_evening_of_the_year_starts_the_calendar_year(world: World) -> None:
    play_evening(world, dt.date(2025, 3, 14), four(world), [])
    season = Season.objects.get(club=world.club)
    assert (season.name, season.start, season.end) == (
        "2025",
        dt.date(2025, 1, 1),
        dt.date(2025, 12, 31),
    )


def test_later_evenings_of_the_year_use_it_and_a_new_year_starts_another(world: World) -> None:
    play_evening(world, dt.date(2025, 3, 14), four(world), [])
    play_evening(world, dt.date(2025, 11, 2), four(world), [])
    play_evening(world, dt.date(2026, 1, 9), four(world), [])
    assert list(Season.objects.filter(club=world.club).values_list("name", flat=True)) == [
        "2026",
        "2025",
    ]


def test_each_club_has_its_own_seasons(world: World) -> None:
    other = make_world(club="Autre club")
    play_evening(world, dt.date(2025, 3, 14), four(world), [])
    play_evening(other, dt.date(2025, 3, 14), four(other), [])
    assert Season.objects.filter(name="2025").count() == 2


def test_an_owner_adds_a_season_and_an_evening_belongs_to_every_season_it_falls_in(
    world: World,
) -> None:
    table = four(world)
    ana = table[0]
    play_evening(world, dt.date(2025, 3, 14), table, [deal(table, ana, "garde", 2, 49)])
    play_evening(world, dt.date(2025, 9, 1), table, [deal(table, ana, "petite", 1, 51)])
    spring = services.season_create(
        club=world.club,
        name=" Spring  league ",
        start=dt.date(2025, 3, 1),
        end=dt.date(2025, 5, 31),
    )
    assert spring.name == "Spring league"
    year = Season.objects.get(club=world.club, name="2025")
    assert for_season_by_kind(spring)[TAROT].rows[0].total == 198
    assert for_season_by_kind(year)[TAROT].rows[0].total == 198 + 75
    # The narrowest season covering a date is its season.
    assert services.season_for_date(club=world.club, date=dt.date(2025, 4, 1)) == spring
    assert services.season_for_date(club=world.club, date=dt.date(2025, 9, 1)) == year
    assert (
        standings.current_season(standings.club_seasons(world.club), dt.date(2025, 4, 1)) == spring
    )


def test_a_season_covering_the_date_means_no_calendar_year_is_added(world: World) -> None:
    league = services.season_create(
        club=world.club, name="2025-2026", start=dt.date(2025, 9, 1), end=dt.date(2026, 6, 30)
    )
    assert services.season_ensure_for(club=world.club, date=dt.date(2026, 2, 1)) == league
    assert Season.objects.filter(club=world.club).count() == 1


@pytest.mark.parametrize(
    ("name", "start", "end", "field"),
    [
        ("  ", dt.date(2025, 1, 1), dt.date(2025, 2, 1), "name"),
        ("Backwards", dt.date(2025, 2, 1), dt.date(2025, 1, 1), "end"),
    ],
)
def test_a_season_needs_a_name_and_dates_in_order(
    world: World, name: str, start: dt.date, end: dt.date, field: str
) -> None:
    with pytest.raises(ServiceError) as refused:
        services.season_create(club=world.club, name=name, start=start, end=end)
    assert refused.value.field == field


def test_two_seasons_cannot_have_the_same_dates(world: World) -> None:
    services.season_create(
        club=world.club, name="A", start=dt.date(2025, 1, 1), end=dt.date(2025, 2, 1)
    )
    with pytest.raises(ServiceError):
        services.season_create(
            club=world.club, name="B", start=dt.date(2025, 1, 1), end=dt.date(2025, 2, 1)
        )


def test_the_database_refuses_a_season_that_ends_before_it_starts(world: World) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(
            club=world.club, name="x", start=dt.date(2025, 2, 1), end=dt.date(2025, 1, 1)
        )


def test_the_owner_creates_a_season_from_the_seasons_page(world: World, client: Client) -> None:
    client.force_login(world.owner)
    url = f"/clubs/{world.club.pk}/seasons/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert "A new season" in page.text
    response = client.post(
        f"{url}new/",
        {"season-name": "Printemps", "season-start": "2025-03-01", "season-end": "2025-05-31"},
    )
    season = Season.objects.get(club=world.club, name="Printemps")
    assert response.status_code == 302
    assert response["Location"] == f"/clubs/{world.club.pk}/seasons/{season.pk}/"


def test_a_refused_season_shows_the_form_again_with_what_was_typed(
    world: World, client: Client
) -> None:
    client.force_login(world.owner)
    response = client.post(
        f"/clubs/{world.club.pk}/seasons/new/",
        {"season-name": "Printemps", "season-start": "2025-05-31", "season-end": "2025-03-01"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "The last day cannot come before the first day." in response.text
    assert 'value="Printemps"' in response.text
    assert not Season.objects.filter(club=world.club).exists()


def test_members_see_the_seasons_but_not_the_form(world: World, client: Client) -> None:
    services.season_create(
        club=world.club, name="Printemps", start=dt.date(2025, 3, 1), end=dt.date(2025, 5, 31)
    )
    client.force_login(world.member)
    page = client.get(f"/clubs/{world.club.pk}/seasons/", HTTP_ACCEPT_LANGUAGE="en").text
    assert "Printemps" in page
    assert "A new season" not in page


def test_the_season_page_links_its_latest_evenings_and_its_files(
    world: World, client: Client
) -> None:
    table = four(world)
    evening = play_evening(
        world, dt.date(2025, 3, 14), table, [deal(table, table[0], "garde", 2, 49)]
    )
    season = Season.objects.get(club=world.club)
    client.force_login(world.member)
    page = client.get(
        f"/clubs/{world.club.pk}/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="en"
    ).text
    assert f'href="/evenings/{evening.pk}/"' in page
    assert f"/clubs/{world.club.pk}/seasons/{season.pk}/export.csv" in page
    assert f"/clubs/{world.club.pk}/seasons/{season.pk}/export.json" in page
    assert "1 evening," in page and "1 deal played" in page


def test_a_member_whose_session_is_no_longer_good_is_not_shown_the_season(
    world: World, client: Client
) -> None:
    """The membership and its account are read in one query: checked as auth.get_user does."""
    table = four(world)
    play_evening(world, dt.date(2025, 3, 14), table, [deal(table, table[0], "garde", 2, 49)])
    season = Season.objects.get(club=world.club)
    url = f"/clubs/{world.club.pk}/seasons/{season.pk}/"
    client.force_login(world.member)
    assert client.get(url).context["user"] == world.member
    world.member.set_password("another one")  # every other session's mark is wrong now
    world.member.save()
    assert client.get(url).status_code == 404
    client.force_login(world.member)
    type(world.member).objects.filter(pk=world.member.pk).update(is_active=False)
    assert client.get(url).status_code == 404
