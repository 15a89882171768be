"""The chelem's pills on a phone (390×844 and 320×640), in each language: every word whole,
no "Annonce / et réuss…"."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.signing_in import signed_in_phone
from tests.factories import NAMES, make_club, start_evening

SIZES = [
    pytest.param({"width": 390, "height": 844}, id="390x844"),
    pytest.param({"width": 320, "height": 640}, id="320x640"),
]
SCREENSHOTS = os.environ.get("PILL_SCREENSHOTS")  # a folder: save the pills there
pytestmark = pytest.mark.django_db(transaction=True)

WHOLE = """(pill) => {
  const range = document.createRange();
  range.selectNodeContents(pill);
  const ink = range.getBoundingClientRect(), box = pill.getBoundingClientRect();
  return {
    text: pill.textContent.trim(),
    whole: pill.scrollWidth <= pill.clientWidth && pill.scrollHeight <= pill.clientHeight
      && ink.left >= box.left - 0.5 && ink.right <= box.right + 0.5
      && ink.top >= box.top - 0.5 && ink.bottom <= box.bottom + 0.5,
  };
}"""


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
@pytest.mark.parametrize("viewport", SIZES)
def test_every_chelem_pill_shows_its_words_whole(
    live_server, browser: Browser, viewport: dict[str, int], language: str
) -> None:
    club, players = make_club(players=NAMES[:5])
    evening, _game = start_evening(club, players)
    context = signed_in_phone(
        browser, live_server.url, club.memberships.get(role="owner").user, viewport, language
    )
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/evenings/{evening.pk}/")
        page.wait_for_load_state("load")
        page.locator("form.deal-form details.bonuses summary").tap()
        pills = page.locator("fieldset[id$='chelem-group'] .choice span")
        expect(pills).to_have_count(5)
        shown = [pill.evaluate(WHOLE) for pill in pills.all()]
        if SCREENSHOTS:
            pills.first.scroll_into_view_if_needed()
            page.screenshot(path=f"{SCREENSHOTS}/chelem-{language}-{viewport['width']}.png")
        assert all(pill["whole"] for pill in shown), shown
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()
