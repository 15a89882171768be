"""The bar with the score preview and Save, at 390×844 and 320×640.

The preview's place is kept: the bar is as tall before the score shows, with it, and
without network, so a tap aimed just above it never lands on something else. Without
network, "No network: …" reads at 4.5:1 or more, in light and in dark (axe).
"""

from __future__ import annotations

from pathlib import Path

import axe_playwright_python
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.deal_taps import bid_cell, tap_bid
from tests.e2e.test_table_on_a_phone import PLAYERS, SIZES, fill_garde, phone
from tests.factories import make_club, start_evening

AXE_SOURCE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
NO_NETWORK = "No network: the score of this deal will be computed when it is sent."
expect.set_options(timeout=15_000)
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table():
    club, players = make_club(players=PLAYERS)
    evening, game = start_evening(club, players)
    return club.memberships.get(role="owner").user, evening, game


def bar_height(page: Page) -> float:
    return page.evaluate("document.querySelector('.entry-bar').getBoundingClientRect().height")


@pytest.mark.parametrize("viewport", SIZES)
def test_the_bar_is_as_tall_before_with_and_without_the_score(
    live_server, browser: Browser, table, viewport
) -> None:
    user, evening, _game = table
    page = phone(browser, live_server, user, viewport)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    form = page.locator("form.deal-form")
    empty = bar_height(page)
    tap_bid(form, "Chloé", "Garde")
    expect(form.locator(".preview")).to_contain_text("Not complete yet")
    assert bar_height(page) == empty
    fill_garde(form, "Chloé", "Dan", "20")  # a garde failed by 21: five 3-digit scores
    expect(form.locator(".preview-result")).to_contain_text("Failed by")
    assert bar_height(page) == empty
    page.context.set_offline(True)
    expect(form.locator(".preview")).to_have_text(NO_NETWORK)
    assert bar_height(page) == empty
    page.context.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_the_no_network_message_reads_at_4_5_to_1_in_light_and_in_dark(
    live_server, browser: Browser, table, viewport
) -> None:
    user, evening, _game = table
    page = phone(browser, live_server, user, viewport)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    form = page.locator("form.deal-form")
    page.context.set_offline(True)
    # An answer tapped without network: the preview's request fails, its message stays.
    bid_cell(form, "Ben", "Garde").tap()
    page.wait_for_timeout(600)  # the preview's request (80 ms after the tap) has failed
    expect(form.locator(".preview")).to_have_text(NO_NETWORK)
    page.evaluate(AXE_SOURCE)
    # The same message in each scheme: the stylesheets' prefers-color-scheme rules follow
    # the emulated one without a reload.
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        results = page.evaluate(
            "axe.run('.entry-bar', {runOnly: ['color-contrast'], resultTypes: ['violations']})"
        )
        found = [node["target"] for v in results["violations"] for node in v["nodes"]]
        assert found == [], scheme
    page.context.close()
