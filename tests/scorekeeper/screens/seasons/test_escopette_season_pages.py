"""L'escopette on the season page, the club page and a player's page, beside French Tarot."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from scorekeeper.models import Season
from scorekeeper.reads.player_figures import player_sections
from tests.scorekeeper.escopette_season import (
    EXPECTED,
    escopette_world,
    figures,
    names_in,
    season_2025,
    section,
)
from tests.scorekeeper.season_factories import (
    World,
    fresh_memory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    yield from fresh_memory()


@pytest.fixture
def world() -> World:
    return escopette_world()


# --- The season page ------------------------------------------------------------------------


def test_the_season_page_shows_both_games_apart(world: World, client: Client) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    page = client.get(f"/clubs/{world.club.pk}/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    tarot_html = section(page.text, "standings")
    escopette_html = section(page.text, "escopette-standings")
    assert "French Tarot" in tarot_html and "escopette" not in tarot_html
    assert names_in(tarot_html) == ["Dan", "Eve", "Ana", "Ben", "Chloé"]
    assert "L'escopette" in escopette_html
    assert "4 games" in escopette_html and "7 deals played" in escopette_html
    assert names_in(escopette_html) == ["Ana", "Chloé", "Ben", "Dan", "Eve"]
    cells = re.findall(r"<tr>(.*?)</tr>", escopette_html, re.S)[1:]
    ana = re.sub(r"<[^>]+>", " ", cells[0]).split()
    assert ana == ["1", "Ana", "176", "7", "4", "0", "25.1"]
    ben = re.sub(r"<[^>]+>", " ", cells[2]).split()
    assert ben == ["3", "Ben", "77", "7", "4", "1", "11.0"]
    # The lead counts the evenings and deals of both games: 2025-01-10 (French Tarot),
    # 2025-02-07 (both), 2025-03-01 and 2025-04-04 (L'escopette); 5 + 7 deals.
    assert "4 evenings" in page.text and "12 deals played" in page.text


@pytest.mark.parametrize(
    ("sort", "direction", "order"),
    [
        ("total", "asc", ["Eve", "Dan", "Ben", "Chloé", "Ana"]),
        ("name", "asc", ["Ana", "Ben", "Chloé", "Dan", "Eve"]),
        ("won", "desc", ["Chloé", "Ben", "Ana", "Dan", "Eve"]),
        ("games", "desc", ["Ana", "Ben", "Chloé", "Eve", "Dan"]),
        ("deals", "asc", ["Dan", "Chloé", "Eve", "Ana", "Ben"]),
        ("average", "desc", ["Ana", "Dan", "Chloé", "Ben", "Eve"]),
        ("takes", "asc", ["Eve", "Dan", "Ben", "Chloé", "Ana"]),  # not a column here: points
    ],
)
def test_the_escopette_table_sorts_by_each_column_leaving_the_tarot_table(
    world: World, client: Client, sort: str, direction: str, order: list[str]
) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    page = client.get(
        f"/clubs/{world.club.pk}/seasons/{season.pk}/",
        {"game": "escopette", "sort": sort, "dir": direction},
        HTTP_ACCEPT_LANGUAGE="en",
    ).text
    assert names_in(section(page, "escopette-standings")) == order
    assert names_in(section(page, "standings")) == ["Dan", "Eve", "Ana", "Ben", "Chloé"]


def test_the_escopette_sorting_links_name_the_game_and_come_back_to_the_section(
    world: World, client: Client
) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    url = f"/clubs/{world.club.pk}/seasons/{season.pk}/"
    page = client.get(url, {"game": "escopette", "sort": "won", "dir": "desc"}).text
    html = section(page, "escopette-standings")
    assert re.search(
        r'aria-sort="descending">\s*<a href="[^"]*\?game=escopette&amp;sort=won&amp;dir=asc'
        r'#escopette-standings" hx-get="[^"#]*\?game=escopette&amp;sort=won&amp;dir=asc"',
        html,
    )
    assert html.count("aria-sort=") == 1
    assert 'hx-target="#escopette-standings"' in html
    # The French Tarot table's links stay as they were.
    assert f'href="{url}?sort=name&amp;dir=asc"' in section(page, "standings")


def test_sorting_with_htmx_sends_only_the_escopette_section(world: World, client: Client) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    response = client.get(
        f"/clubs/{world.club.pk}/seasons/{season.pk}/",
        {"game": "escopette", "sort": "name", "dir": "asc"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="escopette-standings",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="escopette-standings"')
    assert '<section id="standings"' not in response.text and "<html" not in response.text
    assert names_in(response.text) == ["Ana", "Ben", "Chloé", "Dan", "Eve"]


def test_a_season_without_lescopette_has_no_section_for_it(world: World, client: Client) -> None:
    january = Season.objects.create(
        club=world.club, name="January", start="2025-01-01", end="2025-01-31"
    )
    client.force_login(world.member)
    page = client.get(
        f"/clubs/{world.club.pk}/seasons/{january.pk}/", HTTP_ACCEPT_LANGUAGE="en"
    ).text
    assert 'id="escopette-standings"' not in page
    assert "French Tarot" not in section(page, "standings")  # one game: no need to name it
    assert names_in(section(page, "standings")) == ["Dan", "Ana", "Ben", "Chloé"]  # 2189, -587…


def test_a_season_of_lescopette_only_says_there_is_no_tarot(world: World, client: Client) -> None:
    april = Season.objects.create(
        club=world.club, name="April", start="2025-04-01", end="2025-04-30"
    )
    client.force_login(world.member)
    page = client.get(f"/clubs/{world.club.pk}/seasons/{april.pk}/", HTTP_ACCEPT_LANGUAGE="en").text
    assert "No deal of French Tarot has been played in this season yet." in page
    assert names_in(section(page, "escopette-standings")) == ["Ana", "Chloé", "Ben", "Eve"]


def test_the_club_page_shows_both_games_of_the_current_season(world: World) -> None:
    from scorekeeper.screens.standings import club_season_context

    season = Season.objects.create(
        club=world.club, name="Long league", start="2025-01-01", end="2099-12-31"
    )
    context = club_season_context(world.club)
    assert context["season"] == season
    assert figures(context["escopette_standings"]) == EXPECTED
    with translation.override("en"):
        html = render_to_string("scorekeeper/seasons/_standings_table.html", context)
    escopette_html = section(html, "escopette-standings")
    assert "Standings: Long league" in escopette_html
    assert names_in(escopette_html) == ["Ana", "Chloé", "Ben", "Dan", "Eve"]
    assert "hx-get" not in html  # on the club page, sorting opens the season's page
    assert (
        f'href="/clubs/{world.club.pk}/seasons/{season.pk}/?game=escopette&amp;sort=name'
        '&amp;dir=asc#escopette-standings"' in escopette_html
    )


# --- A player's page ------------------------------------------------------------------------


def test_a_players_figures_of_lescopette(world: World) -> None:
    season = season_2025(world)
    p = world.players
    tarot_figures, ana = player_sections(p["Ana"], start=season.start, end=season.end)
    assert tarot_figures.summary.total == -313  # French Tarot's, as before
    assert ana is not None
    assert (ana.total, ana.deals, ana.games, ana.won, ana.average) == (176, 7, 4, 0, 25.1)
    _tarot, dan = player_sections(p["Dan"])
    assert dan is not None and (dan.total, dan.deals, dan.games, dan.won) == (93, 3, 3, 1)
    january = Season.objects.create(
        club=world.club, name="January", start="2025-01-01", end="2025-01-31"
    )
    assert player_sections(p["Ana"], start=january.start, end=january.end)[1] is None


def test_the_player_page_has_a_section_for_lescopette(world: World, client: Client) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    url = f"/clubs/{world.club.pk}/players/{world.players['Chloé'].pk}/"
    page = client.get(url, {"season": season.pk}, HTTP_ACCEPT_LANGUAGE="en").text
    assert "French Tarot" in page
    escopette_html = page.split('id="escopette-title"')[1]
    values = re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", escopette_html)
    assert values == [
        ("Points", "109"),
        ("Deals played", "6"),
        ("Per deal", "18.2"),
        ("Games played", "3"),
        ("Games won", "1"),
    ]
    all_time = client.get(url, {"season": "all"}, HTTP_ACCEPT_LANGUAGE="en").text
    assert 'id="escopette-title"' in all_time  # 2024-12-20: Chloé scored 0, and played


def test_a_player_without_lescopette_in_the_scope_has_no_section(
    world: World, client: Client
) -> None:
    january = Season.objects.create(
        club=world.club, name="January", start="2025-01-01", end="2025-01-31"
    )
    client.force_login(world.member)
    url = f"/clubs/{world.club.pk}/players/{world.players['Ana'].pk}/"
    page = client.get(url, {"season": january.pk}, HTTP_ACCEPT_LANGUAGE="en").text
    assert "escopette" not in page.lower()
