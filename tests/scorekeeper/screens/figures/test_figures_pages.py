"""The club figures pages: members only, a season or all time, each figure explained."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from scorekeeper import services
from scorekeeper.reads.club_figures import club_figures
from scorekeeper.reads.figures_pages import ratings_page
from tests.scorekeeper.season_factories import (
    World,
    deal,
    hand_computed_season,
    make_world,
    play_evening,
)

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
PAGES = ("ratings", "head-to-head", "records", "contracts")


@pytest.fixture
def world() -> World:
    world = make_world()
    hand_computed_season(world)
    return world


def _url(world: World, page: str) -> str:
    return f"/clubs/{world.club.pk}/{page}/"


@pytest.mark.parametrize("page", PAGES)
def test_a_stranger_gets_404_and_a_member_the_page(world: World, client: Client, page: str):
    assert client.get(_url(world, page)).status_code == 404
    client.force_login(world.outsider)
    assert client.get(_url(world, page)).status_code == 404
    client.force_login(world.member)
    assert client.get(_url(world, page)).status_code == 200
    assert client.get(_url(world, page), {"season": "all"}).status_code == 200


def test_a_member_whose_session_is_no_longer_good_is_not_shown_the_page(world, client):
    """The membership and its account are read in one query: checked as auth.get_user does."""
    client.force_login(world.member)
    assert client.get(_url(world, "ratings")).context["user"] == world.member
    world.member.set_password("another one")  # every other session's mark is wrong now
    world.member.save()
    assert client.get(_url(world, "ratings")).status_code == 404
    client.force_login(world.member)
    type(world.member).objects.filter(pk=world.member.pk).update(is_active=False)
    assert client.get(_url(world, "ratings")).status_code == 404


@pytest.mark.parametrize("page", PAGES)
def test_a_season_that_is_not_the_club_s_is_a_404(world: World, client: Client, page: str):
    client.force_login(world.member)
    for wanted in ("999999", "x", "-1"):
        assert client.get(_url(world, page), {"season": wanted}).status_code == 404


def test_the_head_to_head_page_lists_what_each_player_won_from_each_other(world, client):
    client.force_login(world.member)
    with translation.override("en"):
        text = client.get(_url(world, "head-to-head"), {"season": "all"}, **EN).content.decode()
    assert "Who took points from whom" in text
    assert "Ana against each player" in text
    assert "Ana calling Ben" in text
    assert "which adds up to his total" in text


def test_the_records_page_links_the_biggest_deal_to_its_evening(world, client):
    client.force_login(world.member)
    figures = club_figures(world.club.pk)
    record = figures.state.records().biggest_win
    with translation.override("en"):
        text = client.get(_url(world, "records"), {"season": "all"}, **EN).content.decode()
    assert f"/evenings/{record.evening_id}/#deal-{record.deal_id}" in text
    assert "+2280" in text
    assert "Longest runs of made contracts" in text


def test_the_contracts_page_hides_a_rate_below_the_minimum_and_says_so(world, client):
    client.force_login(world.member)
    with translation.override("en"):
        text = client.get(_url(world, "contracts"), {"season": "all"}, **EN).content.decode()
    assert "is not called 100 %" in text
    assert "1/1" in text
    assert "1/1 · 100 %" not in text


def test_the_ratings_page_hides_players_with_few_deals_and_says_why(world, client):
    client.force_login(world.member)
    with translation.override("en"):
        text = client.get(_url(world, "ratings"), {"season": "all"}, **EN).content.decode()
    assert "Not rated yet" in text
    assert "not worth showing yet" in text  # six deals predict nothing


def test_ratings_that_beat_the_base_rate_are_ranked_and_charted() -> None:
    world = make_world(names=("Ana", "Ben", "Chloé", "Dan"))
    four = list(world.players.values())
    ana = four[0]
    for week in range(8):  # Ana always wins, the others always lose
        deals = [deal(four, ana, "garde", 2, 60)]
        for other in four[1:]:
            deals.append(deal(four, other, "garde", 2, 30))
        deals = deals * 2
        play_evening(world, dt.date(2025, 1, 1) + dt.timedelta(days=7 * week), four, deals)
    with translation.override("en"):
        page = ratings_page(club_figures(world.club.pk), {p.pk: p.name for p in four})
    assert page.worth_showing
    assert page.rows[0].name == "Ana" and page.rows[0].rank == 1
    assert page.chart is not None and len(page.chart.series) == 4


def test_the_season_page_and_the_club_page_link_to_the_figures(world, client):
    client.force_login(world.member)
    season = world.club.seasons.get(start=dt.date(2025, 1, 1))
    season_page = client.get(f"/clubs/{world.club.pk}/seasons/{season.pk}/").content.decode()
    assert f"/clubs/{world.club.pk}/ratings/?season={season.pk}" in season_page
    assert f"/clubs/{world.club.pk}/records/?season={season.pk}" in season_page
    club_page = client.get(f"/clubs/{world.club.pk}/").content.decode()
    assert f"/clubs/{world.club.pk}/head-to-head/" in club_page


def test_a_rename_and_a_deal_after_a_drawn_page_are_shown_as_drawn_from_nothing(world, client):
    """The pages' fragments (the page's, the nav's, each records section's, each player's
    flow) are named by what they show: a rename or a deal that beats a record draws them
    again, and each page then reads as one drawn from an empty cache."""
    client.force_login(world.member)

    def pages() -> dict[str, str]:
        texts = {}
        for page in PAGES:
            html = client.get(_url(world, page), {"season": "all"}, **EN).content.decode()
            texts[page] = html[html.index("<main") : html.index("</main>")]
        return texts

    pages()  # drawn and kept
    services.player_rename(player=world.players["Ana"], name="Anaïs")
    kept = pages()
    assert all("Anaïs" in text and not re.search(r"\bAna\b", text) for text in kept.values())
    cache.clear()
    assert pages() == kept
    table = [world.players[name] for name in ("Ana", "Ben", "Chloé", "Eve")]
    big = deal(table, table[3], "garde_contre", 3, 91, chelem="announced")  # Eve's +2640
    play_evening(world, dt.date(2025, 3, 7), table, [big])
    kept = pages()
    assert '"positive">+2640</span><small>Eve · <a href="/evenings/' in kept["records"]
    cache.clear()
    assert pages() == kept
