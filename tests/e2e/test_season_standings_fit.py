"""The season's standings on a phone (390×844 and 320×640), in French, the longest labels:
the whole table fits the screen, as the figures pages do, with no sideways scroll.

One page a language and kind of standings, checked at 390 px and then resized to 320 px:
no script lays the standings out by the screen's width, the stylesheets' media queries
follow a resize."""

from __future__ import annotations

import datetime as dt
import os

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper.models import Season
from tests.e2e.signing_in import signed_in_phone
from tests.scorekeeper.season_factories import deal, make_world, play_evening

SIZES = ({"width": 390, "height": 844}, {"width": 320, "height": 640})
NAMES = ("Ana", "Benoît", "Chloé", "Dan", "Marguerite")
SCREENSHOTS = os.environ.get("SEASON_SCREENSHOTS")  # a folder: save the pages there
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("evening_points", [False, True], ids=["totals", "evening-points"])
@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_standings_fit_a_phone_without_a_sideways_scroll(
    live_server, browser: Browser, language: str, evening_points: bool
) -> None:
    world = make_world(NAMES)
    if evening_points:
        world.club.evening_points = True
        world.club.save()
    five = list(world.players.values())
    ana, dan = five[0], five[3]
    losses = [deal(five, taker, "garde_contre", 0, 10, partner=taker) for taker in five[1:]]
    play_evening(world, dt.date(2025, 1, 10), five, losses * 2)
    play_evening(world, dt.date(2025, 2, 7), five, [deal(five, ana, "garde", 2, 45.5, partner=dan)])
    season = Season.objects.get(club=world.club)
    context = signed_in_phone(browser, live_server.url, world.member, SIZES[0], language)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/clubs/{world.club.pk}/seasons/{season.pk}/")
        standings = page.locator("table.standings")
        expect(standings.locator("tbody tr")).to_have_count(5)
        page.wait_for_load_state("load")  # the stylesheets applied
        for viewport in SIZES:
            page.set_viewport_size(viewport)
            fits(page, viewport, language, evening_points)
    finally:
        context.close()


def fits(page: Page, viewport: dict[str, int], language: str, evening_points: bool) -> None:
    """The standings' table fits the screen: no sideways scroll, every cell whole."""
    standings = page.locator("table.standings")
    if SCREENSHOTS:
        standings.scroll_into_view_if_needed()
        size = f"{viewport['width']}-{language}-{int(evening_points)}"
        page.screenshot(path=f"{SCREENSHOTS}/standings-{size}.png")
    wrap = page.locator(".standings-section .table-wrap").first
    widths = wrap.evaluate("node => [node.scrollWidth, node.clientWidth]")
    assert widths[0] <= widths[1], widths
    biggest = max(
        abs(int(cell.replace("−", "-").replace("\u202f", "").replace(" ", "")))
        for cell in standings.locator("tbody td:nth-child(3)").all_inner_texts()
    )
    assert biggest >= 1000
    # Every header's words whole, every figure whole.
    for cell in standings.locator("th, td").all():
        assert cell.evaluate("c => c.scrollWidth <= c.clientWidth"), cell.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
