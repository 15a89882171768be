"""Season standings, against a season added up by hand (season_factories.hand_computed_season)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from scorekeeper.models import Season
from scorekeeper.models.figures import TAROT
from scorekeeper.reads import standings
from tests.scorekeeper.season_factories import (
    World,
    for_season_by_kind,
    fresh_memory,
    hand_computed_season,
    make_world,
    season_stats_by_kind,
)

pytestmark = pytest.mark.django_db

# name: (total, evenings, deals played, takes, made, points per deal, rank)
EXPECTED = {
    "Dan": (2223, 2, 5, 1, 1, 444.6, 1),
    "Eve": (34, 1, 2, 0, 0, 17.0, 2),
    "Ana": (-313, 2, 5, 2, 2, -62.6, 3),
    "Ben": (-557, 2, 5, 1, 1, -111.4, 4),
    "Chloé": (-1387, 2, 5, 1, 0, -277.4, 5),
}


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    yield from fresh_memory()


@pytest.fixture
def world() -> World:
    world = make_world()
    hand_computed_season(world)
    return world


def season_2025(world: World) -> Season:
    return Season.objects.get(club=world.club, name="2025")


def test_the_standings_add_up_the_season_as_computed_by_hand(world: World) -> None:
    figures = for_season_by_kind(season_2025(world))[TAROT]
    got = {
        row.name: (row.total, row.evenings, row.deals, row.takes, row.made, row.average, row.rank)
        for row in figures.rows
    }
    assert got == EXPECTED
    assert [row.name for row in figures.rows] == ["Dan", "Eve", "Ana", "Ben", "Chloé"]
    assert sum(row.total for row in figures.rows) == 0
    assert figures.deals == 5  # the passed deal is not a deal played
    assert [e.date.isoformat() for e in figures.evenings] == ["2025-01-10", "2025-02-07"]


def test_evenings_outside_the_season_and_other_games_do_not_count(world: World) -> None:
    all_time = season_stats_by_kind(world.club)[TAROT]
    ana = next(row for row in all_time.rows if row.name == "Ana")
    assert (ana.total, ana.evenings, ana.deals, ana.takes) == (-313 + 75, 3, 6, 3)
    # The evening of L'escopette (Ana won all 60 points) is nowhere in the tarot figures.
    assert len(all_time.evenings) == 3


def test_equal_totals_share_a_rank() -> None:
    rows = [
        standings.StandingRow(1, "Zoé", total=10),
        standings.StandingRow(2, "Alix", total=10),
        standings.StandingRow(3, "Max", total=-20),
    ]
    ranked = standings._rank(rows)
    assert [(r.name, r.rank) for r in ranked] == [("Alix", 1), ("Zoé", 1), ("Max", 3)]


@pytest.mark.parametrize(
    ("sort", "descending", "order"),
    [
        ("total", True, ["Dan", "Eve", "Ana", "Ben", "Chloé"]),
        ("total", False, ["Chloé", "Ben", "Ana", "Eve", "Dan"]),
        ("name", False, ["Ana", "Ben", "Chloé", "Dan", "Eve"]),
        ("takes", True, ["Ana", "Dan", "Ben", "Chloé", "Eve"]),
        ("made", True, ["Ana", "Dan", "Ben", "Eve", "Chloé"]),
        ("deals", False, ["Eve", "Dan", "Ana", "Ben", "Chloé"]),
        ("evenings", True, ["Dan", "Ana", "Ben", "Chloé", "Eve"]),
        ("average", False, ["Chloé", "Ben", "Ana", "Eve", "Dan"]),
    ],
)
def test_the_standings_sort_by_each_column(
    world: World, client: Client, sort: str, descending: bool, order: list[str]
) -> None:
    season = season_2025(world)
    rows = for_season_by_kind(season)[TAROT].rows
    assert [r.name for r in standings.sort_rows(rows, sort, descending)] == order
    client.force_login(world.member)
    direction = "desc" if descending else "asc"
    response = client.get(
        f"/clubs/{world.club.pk}/seasons/{season.pk}/?sort={sort}&dir={direction}",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    table = response.text.split('<table class="scores standings compact">')[1].split("</table>")[0]
    names = re.findall(r'class="player-name"><a href="[^"]+">([^<]+)</a>', table)
    assert names == order


def test_the_sorted_column_says_so_and_its_link_turns_the_order_round(
    world: World, client: Client
) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    url = f"/clubs/{world.club.pk}/seasons/{season.pk}/"
    page = client.get(url, {"sort": "takes", "dir": "desc"}, HTTP_ACCEPT_LANGUAGE="en").text
    assert re.search(r'aria-sort="descending">\s*<a href="[^"]*sort=takes&amp;dir=asc"', page)
    tarot_table = page.split('id="escopette-standings"')[0]
    assert tarot_table.count("aria-sort=") == 1
    assert f'href="{url}?sort=name&amp;dir=asc"' in page  # names start A to Z


def test_an_unknown_sort_falls_back_to_the_total(world: World, client: Client) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    response = client.get(f"/clubs/{world.club.pk}/seasons/{season.pk}/?sort=evil&dir=sideways")
    assert response.status_code == 200
    assert 'aria-sort="descending"' in response.text


def test_sorting_with_htmx_sends_only_the_table(world: World, client: Client) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    response = client.get(
        f"/clubs/{world.club.pk}/seasons/{season.pk}/?sort=name&dir=asc",
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="standings",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith("<link") or "<html" not in response.text
    assert '<section id="standings"' in response.text
    assert "<html" not in response.text
    assert "Cumulative totals" not in response.text


def test_the_standings_link_to_each_players_page_for_the_season(
    world: World, client: Client
) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    page = client.get(f"/clubs/{world.club.pk}/seasons/{season.pk}/").text
    for player in world.players.values():
        assert f'href="/clubs/{world.club.pk}/players/{player.pk}/?season={season.pk}"' in page


def test_the_club_page_context_gives_the_current_seasons_standings(world: World) -> None:
    from scorekeeper.screens.standings import club_season_context

    season = Season.objects.create(
        club=world.club, name="Long league", start="2025-01-01", end="2099-12-31"
    )
    context = club_season_context(world.club)
    assert context["season"] == season
    assert [row.name for row in context["standings"]] == ["Dan", "Eve", "Ana", "Ben", "Chloé"]
    with translation.override("en"):
        html = render_to_string("scorekeeper/seasons/_standings_table.html", context)
    assert "Standings: Long league" in html
    assert f'href="/clubs/{world.club.pk}/seasons/{season.pk}/?sort=name&amp;dir=asc"' in html
    assert "hx-get" not in html  # on the club page, sorting opens the season's page
    assert f'href="/clubs/{world.club.pk}/seasons/"' in html


def test_the_club_page_shows_nothing_before_the_first_season() -> None:
    from scorekeeper.screens.standings import club_season_context

    world = make_world()
    html = render_to_string(
        "scorekeeper/seasons/_standings_table.html", club_season_context(world.club)
    )
    assert "<table" not in html and "<h2" not in html


def test_a_deal_saved_later_changes_the_standings_at_once(world: World) -> None:
    from scorekeeper import services
    from tests.scorekeeper.season_factories import deal

    season = season_2025(world)
    assert for_season_by_kind(season)[TAROT].rows[0].name == "Dan"
    evening = season_2025(world).club.evenings.get(date="2025-02-07")
    eve = world.players["Eve"]
    five = list(world.players.values())
    services.deal_record(
        game=evening.games.get(), inputs=deal(five, eve, "garde_contre", 3, 80, partner=eve)
    )
    rows = {row.name: row for row in for_season_by_kind(season)[TAROT].rows}
    # garde contre made by 44, alone with 5: V = (25 + 44) × 6 = 414, the taker gets 4V.
    assert (rows["Eve"].total, rows["Eve"].takes, rows["Eve"].made) == (34 + 4 * 414, 1, 1)
    assert rows["Dan"].total == 2223 - 414
    assert sum(row.total for row in rows.values()) == 0


def test_a_season_with_no_deal_says_so(client: Client) -> None:
    world = make_world()
    season = Season.objects.create(
        club=world.club, name="Empty", start="2030-01-01", end="2030-06-30"
    )
    client.force_login(world.member)
    response = client.get(f"/clubs/{world.club.pk}/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "No deal has been played in this season yet." in response.text
