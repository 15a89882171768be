"""Every URL of the season pages: 404 for anonymous visitors and non-members."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

import pytest
from django.test import Client

from scorekeeper.models import Evening, Season
from tests.scorekeeper.season_factories import World, deal, make_world, play_evening

pytestmark = pytest.mark.django_db


@dataclass
class Place:
    world: World
    season: Season
    evening: Evening


@pytest.fixture
def place() -> Place:
    world = make_world()
    table = list(world.players.values())[:4]
    evening = play_evening(
        world, dt.date(2025, 1, 10), table, [deal(table, table[0], "garde", 2, 49)]
    )
    return Place(world=world, season=Season.objects.get(club=world.club), evening=evening)


def member_urls(p: Place) -> list[str]:
    club, season, ana = p.world.club.pk, p.season.pk, p.world.players["Ana"].pk
    return [
        f"/clubs/{club}/seasons/",
        f"/clubs/{club}/seasons/{season}/",
        f"/clubs/{club}/seasons/{season}/?sort=name&dir=asc",
        f"/clubs/{club}/seasons/{season}/export.csv",
        f"/clubs/{club}/seasons/{season}/export.json",
        f"/clubs/{club}/players/{ana}/",
        f"/clubs/{club}/players/{ana}/?season=all",
        f"/clubs/{club}/players/{ana}/?season={season}",
        f"/clubs/{club}/import/",
        f"/evenings/{p.evening.pk}/export.csv",
        f"/evenings/{p.evening.pk}/export.json",
    ]


def season_form(p: Place) -> tuple[str, dict[str, str]]:
    return (
        f"/clubs/{p.world.club.pk}/seasons/new/",
        {"season-name": "Printemps", "season-start": "2025-03-01", "season-end": "2025-05-31"},
    )


def import_form(p: Place) -> tuple[str, dict[str, str]]:
    sheet = {"players": ["Ana", "Ben", "Chloé"], "deals": [{"passed": True}]}
    return (
        f"/clubs/{p.world.club.pk}/import/",
        {"import-text": json.dumps(sheet), "import-date": "2025-06-01", "import-confirm": "on"},
    )


def test_anonymous_visitors_get_404_everywhere(place: Place, client: Client) -> None:
    for url in member_urls(place):
        assert client.get(url).status_code == 404, url
    for url, data in (season_form(place), import_form(place)):
        assert client.post(url, data).status_code == 404, url
    assert Evening.objects.count() == 1 and Season.objects.count() == 1


def test_people_outside_the_club_get_404_everywhere(place: Place, client: Client) -> None:
    client.force_login(place.world.outsider)
    for url in member_urls(place):
        assert client.get(url).status_code == 404, url
    for url, data in (season_form(place), import_form(place)):
        assert client.post(url, data).status_code == 404, url
    assert Evening.objects.count() == 1 and Season.objects.count() == 1


def test_members_see_every_page_and_download_every_file(place: Place, client: Client) -> None:
    client.force_login(place.world.member)
    for url in member_urls(place):
        assert client.get(url).status_code == 200, url


def test_members_import_but_only_the_owner_creates_a_season(place: Place, client: Client) -> None:
    client.force_login(place.world.member)
    url, data = season_form(place)
    assert client.post(url, data).status_code == 403
    assert not Season.objects.filter(name="Printemps").exists()
    url, data = import_form(place)
    assert client.post(url, data).status_code == 302
    client.force_login(place.world.owner)
    url, data = season_form(place)
    assert client.post(url, data).status_code == 302
    assert Season.objects.filter(name="Printemps").exists()


def test_another_clubs_season_player_or_evening_is_not_found_through_ones_own_club(
    place: Place, client: Client
) -> None:
    other = make_world(names=("Zoé", "Yves", "Xavier"), club="Autre")
    table = list(other.players.values())
    theirs = play_evening(other, dt.date(2025, 2, 1), table, [])
    their_season = Season.objects.get(club=other.club)
    client.force_login(place.world.member)
    club = place.world.club.pk
    for url in (
        f"/clubs/{club}/seasons/{their_season.pk}/",
        f"/clubs/{club}/seasons/{their_season.pk}/export.csv",
        f"/clubs/{club}/seasons/{their_season.pk}/export.json",
        f"/clubs/{club}/players/{other.players['Zoé'].pk}/",
        f"/evenings/{theirs.pk}/export.csv",
        f"/evenings/{theirs.pk}/export.json",
    ):
        assert client.get(url).status_code == 404, url


def test_the_pages_refuse_methods_they_do_not_take(place: Place, client: Client) -> None:
    client.force_login(place.world.owner)
    assert client.get(season_form(place)[0]).status_code == 405
    assert client.post(member_urls(place)[1]).status_code == 405
    assert client.delete(f"/evenings/{place.evening.pk}/export.csv").status_code == 405
