"""A table records a deal the rules here do not cover, by its scores, on a 320 px phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from scorekeeper import services
from scorekeeper.models import Deal
from tests.e2e.test_season_standings import signed_in
from tests.scorekeeper.season_factories import make_world


@pytest.mark.django_db(transaction=True)
def test_a_deal_entered_by_its_scores_shows_marked_in_the_sheet(
    live_server, browser: Browser
) -> None:
    world = make_world()
    ana, ben, chloe, dan, _eve = world.players.values()
    evening = services.evening_start(
        club=world.club, players=[ana, ben, chloe, dan], first_dealer=ana, created_by=world.owner
    )
    page = signed_in(browser, live_server, world)
    page.set_viewport_size({"width": 320, "height": 700})
    try:
        page.goto(f"{live_server.url}/evenings/{evening.pk}/")
        page.get_by_role("link", name="enter it by its scores").click()
        for player, score in ((ana, "45"), (ben, "-15"), (chloe, "-15"), (dan, "-16")):
            page.get_by_label(player.name, exact=True).fill(score)
        page.get_by_role("button", name="Save the deal").click()
        expect(page.get_by_role("alert")).to_contain_text("add up to -1, not 0")
        expect(page.get_by_label(dan.name, exact=True)).to_have_value("-16")  # nothing lost
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        page.get_by_label(dan.name, exact=True).fill("-15")
        page.get_by_role("button", name="Save the deal").click()
        expect(page.locator("tr .paper-mark")).to_have_text("scores only")
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        assert Deal.objects.get(game__evening=evening).paper
    finally:
        page.context.close()
