"""A member opens a season's standings and its chart on a phone (390×844)."""

from __future__ import annotations

import datetime as dt
import os
import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from scorekeeper.models import Season
from tests.e2e.conftest import new_phone_page
from tests.scorekeeper.season_factories import World, deal, make_world, passed, play_evening

SCREENSHOTS = os.environ.get("SEASON_SCREENSHOTS")  # a folder: save the pages there


def a_season(world: World) -> Season:
    ana, ben, chloe, dan, eve = world.players.values()
    four = [ana, ben, chloe, dan]
    five = [ana, ben, chloe, dan, eve]
    play_evening(
        world,
        dt.date(2025, 1, 10),
        four,
        [deal(four, ana, "garde", 2, 49), passed(four), deal(four, ben, "petite", 1, 40)],
    )
    play_evening(
        world,
        dt.date(2025, 2, 7),
        five,
        [
            deal(five, chloe, "garde", 2, 45.5, partner=dan),
            deal(five, eve, "garde_sans", 3, 60, partner=eve, petit_au_bout="attack"),
        ],
    )
    play_evening(
        world,
        dt.date(2025, 3, 14),
        four,
        [deal(four, dan, "garde_contre", 1, 55), deal(four, ana, "petite", 0, 30)],
    )
    return Season.objects.get(club=world.club)


def signed_in(browser: Browser, live_server, world: World, *, dark: bool = False) -> Page:
    client = Client()
    client.force_login(world.member)
    page = new_phone_page(browser, dark=dark)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return page


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_member_opens_the_standings_and_the_chart_on_a_phone(
    live_server, browser: Browser, dark: bool
) -> None:
    world = make_world()
    season = a_season(world)
    page = signed_in(browser, live_server, world, dark=dark)
    try:
        page.goto(f"{live_server.url}/clubs/{world.club.pk}/seasons/{season.pk}/")
        standings = page.locator("table.standings")
        expect(standings).to_be_visible()
        expect(standings.locator("tbody tr")).to_have_count(5)
        chart = page.locator("figure.chart svg[role=img]")
        expect(chart).to_be_visible()
        assert chart.bounding_box()["width"] <= 390
        assert page.locator("figure.chart path.chart-line").count() == 5
        # The page does not scroll sideways; only the table may, inside its frame.
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # The lines are drawn in the theme's colours, not black on black.
        stroke = page.evaluate("getComputedStyle(document.querySelector('path.series-0')).stroke")
        assert stroke in (("rgb(127, 184, 224)",) if dark else ("rgb(31, 95, 139)",)), stroke
        theme = "dark" if dark else "light"
        if SCREENSHOTS:
            page.screenshot(path=f"{SCREENSHOTS}/season-{theme}.png", full_page=True)

        # Sorting by a column works by htmx, and the address follows.
        page.get_by_role("link", name="Takes").click()
        expect(page.locator("th[aria-sort=descending]")).to_contain_text("Takes")
        assert "sort=takes" in page.url

        # A player's page and the player's chart.
        page.locator("table.standings tbody a").first.click()
        expect(page.locator("figure.chart svg.chart-svg")).to_be_visible()
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        if SCREENSHOTS:
            page.screenshot(path=f"{SCREENSHOTS}/season-player-{theme}.png", full_page=True)

        # The import page keeps a bad sheet in view with the deal and field at fault.
        page.goto(f"{live_server.url}/clubs/{world.club.pk}/import/")
        bad = '{"players": ["Ana", "Ben", "Zoé"], "deals": [{"passed": true}, '
        bad += '{"taker": "Zoé", "contract": "garde", "bouts": 1, "points": 93}]}'
        page.get_by_label("Or paste it here").fill(bad)
        page.get_by_role("button", name="Preview").click()
        expect(page.get_by_role("alert")).to_contain_text("deal 2: points: 93 is more than 91")
        expect(page.get_by_label("Or paste it here")).to_have_value(bad)
        page.wait_for_load_state("load")  # the stylesheets applied
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        if SCREENSHOTS:
            page.screenshot(path=f"{SCREENSHOTS}/season-import-{theme}.png", full_page=True)
        # A good sheet: the preview first, nothing written; then Import writes it.
        page.get_by_label("Or paste it here").fill(bad.replace("93", "53"))
        page.get_by_role("button", name="Preview").click()
        expect(page.locator("#import-preview")).to_contain_text("2 deals")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.get_by_role("button", name="Import", exact=True).click()
        expect(page).to_have_url(re.compile(r"/evenings/\d+/"))
    finally:
        page.context.close()
