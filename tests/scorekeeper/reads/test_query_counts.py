"""The season pages make as many queries with a big season as with a small one."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Season
from scorekeeper.models.figures import TAROT
from scorekeeper.reads import charts
from tests.scorekeeper.season_factories import (
    World,
    deal,
    for_season_by_kind,
    fresh_memory,
    make_world,
    passed,
    play_evening,
)

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Ben", "Chloé", "Dan", "Eve", "Fred", "Gaby", "Hugo")
SIZES = {"small": (2, 3, 5), "big": (9, 12, 8)}  # evenings, deals each, players in the club

# Queries, pinned, the same for a small club and a bigger one: session, the membership with
# its account, seasons (the one shown among them); then the evenings at their versions and the
# stored figures (the players' sums with each night's rules, the evenings' counts).
SEASON_PAGE = 8  # cold: the evenings at their versions, the settled ones added up, tonight's
SEASON_PAGE_WARM = 4  # the evenings at their versions: the figures are in the cache
SEASON_PAGE_SEEN = 3  # the same view again, the session's query apart (none with Redis's
# sessions): the figures and the rules in force from the cache
PLAYER_PAGE = 6
PLAYER_PAGE_WARM = 6
SEASON_CHART = 7  # the evenings at their versions; settled and tonight's figures
EXPORT = 10
CLUB_STANDINGS = 12


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    yield from fresh_memory()


def grow(evenings: int, deals_each: int, players: int) -> World:
    world = make_world(names=NAMES[:players])
    everyone = list(world.players.values())
    for number in range(evenings):
        table = [everyone[(number + k) % players] for k in range(4 + number % 2)]
        deals = []
        for n in range(deals_each):
            taker = table[n % len(table)]
            partner = table[(n + 1) % len(table)] if len(table) == 5 else None
            if n % 5 == 4:
                deals.append(passed(table))
            else:
                deals.append(
                    deal(
                        table, taker, "garde", 2, 40 + n % 9, partner=partner, poignees=("simple",)
                    )
                )
        play_evening(world, dt.date(2025, 1, 1) + dt.timedelta(days=7 * number), table, deals)
    return world


@pytest.fixture(params=list(SIZES))
def world(request: pytest.FixtureRequest) -> World:
    return grow(*SIZES[request.param])


def test_the_season_page(world: World, client: Client, django_assert_max_num_queries) -> None:
    season = Season.objects.get(club=world.club)
    client.force_login(world.member)
    url = f"/clubs/{world.club.pk}/seasons/{season.pk}/"
    with django_assert_max_num_queries(SEASON_PAGE):
        assert client.get(url).status_code == 200
    with django_assert_max_num_queries(SEASON_PAGE_WARM):
        assert client.get(url, {"sort": "average"}).status_code == 200
    with CaptureQueriesContext(connection) as captured:
        again = client.get(url, {"sort": "average"})
    assert again.status_code == 200
    queries = [query["sql"] for query in captured.captured_queries]
    assert len([sql for sql in queries if "django_session" not in sql]) == SEASON_PAGE_SEEN
    read = " ".join(queries)
    assert "playerevening" not in read and "eveningfigures" not in read
    assert "GROUP BY" not in read  # nor the rules in force: they come with the figures


def test_a_players_page(world: World, client: Client, django_assert_max_num_queries) -> None:
    season = Season.objects.get(club=world.club)
    client.force_login(world.member)
    url = f"/clubs/{world.club.pk}/players/{world.players['Ana'].pk}/"
    with django_assert_max_num_queries(PLAYER_PAGE):
        assert client.get(url, {"season": season.pk}).status_code == 200
    with django_assert_max_num_queries(PLAYER_PAGE_WARM):
        assert client.get(url, {"season": season.pk}).status_code == 200
    with django_assert_max_num_queries(PLAYER_PAGE):
        assert client.get(url, {"season": "all"}).status_code == 200


def test_the_season_chart(world: World, django_assert_max_num_queries) -> None:
    season = Season.objects.get(club=world.club)
    with django_assert_max_num_queries(SEASON_CHART):
        chart = charts.season_chart(for_season_by_kind(season)[TAROT])
    assert len(chart.series) == len(world.players)


def test_the_club_pages_standings(world: World, django_assert_max_num_queries) -> None:
    from scorekeeper.screens.standings import club_season_context

    with django_assert_max_num_queries(CLUB_STANDINGS):
        context = club_season_context(world.club)
    assert len(context["standings"]) == len(world.players)


def test_the_exports(world: World, client: Client, django_assert_max_num_queries) -> None:
    season = Season.objects.get(club=world.club)
    evening = world.club.evenings.order_by("-date").first()
    client.force_login(world.member)
    for url in (
        f"/clubs/{world.club.pk}/seasons/{season.pk}/export.csv",
        f"/clubs/{world.club.pk}/seasons/{season.pk}/export.json",
        f"/evenings/{evening.pk}/export.csv",
        f"/evenings/{evening.pk}/export.json",
    ):
        with django_assert_max_num_queries(EXPORT):
            assert client.get(url).status_code == 200, url


def test_a_season_reads_the_stored_figures_not_the_scores_and_writes_nothing(
    world: World, client: Client
) -> None:
    season = Season.objects.get(club=world.club)
    client.force_login(world.member)
    url = f"/clubs/{world.club.pk}/seasons/{season.pk}/"
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    sql = [query["sql"] for query in captured.captured_queries]
    assert any("scorekeeper_playerevening" in query for query in sql)
    assert not any("scorekeeper_dealscore" in query for query in sql), sql
    assert not any(query.startswith(("INSERT", "UPDATE", "DELETE")) for query in sql)
