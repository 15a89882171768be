"""The score sheet on a narrow phone (320×640 and 390×844), with 5 and 6 players whose
totals run to four digits below zero: no total is cut, the names stay readable, and a
name's whole spelling is one tap away."""

from __future__ import annotations

import os
from decimal import Decimal

import pytest
from playwright.sync_api import Browser, expect

from scorekeeper import services
from scorekeeper.models import Evening
from scorekeeper.scoring.tarot import TarotDeal
from tests.e2e.test_table_on_a_phone import phone
from tests.factories import make_club, start_evening

SIZES = [
    pytest.param({"width": 320, "height": 640}, id="320x640"),
    pytest.param({"width": 390, "height": 844}, id="390x844"),
]
NAMES = ("Ana", "Benoît", "Chloé", "Dan", "Marguerite", "Jean-Baptiste")
SCREENSHOTS = os.environ.get("SHEET_SCREENSHOTS")  # a folder: save the sheets there
pytestmark = pytest.mark.django_db(transaction=True)


def an_evening_of_big_losses(count: int) -> tuple[object, Evening]:
    """Garde contre played alone and lost, deal after deal: four-digit totals below zero."""
    club, players = make_club(players=NAMES[:count])
    evening, game = start_evening(club, players)
    owner = club.memberships.get(role="owner").user
    present = services.present_players(game)
    for number in range(8):
        dealer = services.next_dealer(game, present)
        out = set(services.default_sitting_out(game, present, dealer))
        seated = [player for player in present if player not in out]
        taker = seated[number % len(seated)] if number % 3 else seated[0]
        made = number % 4 == 3
        services.deal_record(
            game=game,
            inputs=TarotDeal(
                seated=tuple(player.pk for player in seated),
                taker=taker.pk,
                partner=taker.pk,
                contract="garde_contre",
                bouts=3 if made else 0,
                points=Decimal(80 if made else 12),
            ),
            created_by=owner,
        )
    return owner, evening


FULLY_SHOWN = """(cell) => {
  const wrap = cell.closest('.sheet-wrap').getBoundingClientRect();
  const box = cell.getBoundingClientRect();
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  let left = Infinity, right = -Infinity, text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('.visually-hidden') || !node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const ink = range.getBoundingClientRect();
    left = Math.min(left, ink.left);
    right = Math.max(right, ink.right);
    text += node.textContent;
  }
  return {
    fits: cell.scrollWidth <= cell.clientWidth,
    inside: left >= box.left - 0.5 && right <= box.right + 0.5
      && left >= wrap.left - 0.5 && right <= wrap.right + 0.5,
    text: text.trim(),
  };
}"""

NAME_SHOWN = """(name) => ({
  cut: name.scrollWidth > name.clientWidth + 0.5 || name.scrollHeight > name.clientHeight + 0.5,
  text: name.textContent.trim(),
})"""


@pytest.mark.parametrize("count", [5, 6])
@pytest.mark.parametrize("viewport", SIZES)
def test_no_total_is_cut_and_the_names_stay_readable(
    live_server, browser: Browser, viewport: dict[str, int], count: int
) -> None:
    owner, evening = an_evening_of_big_losses(count)
    page = phone(browser, live_server, owner, viewport)
    try:
        page.goto(f"{live_server.url}/evenings/{evening.pk}/")
        sheet = page.locator("table.sheet")
        expect(sheet).to_be_visible()
        page.wait_for_load_state("load")  # the stylesheets applied
        if SCREENSHOTS:
            size = f"{viewport['width']}x{viewport['height']}"
            sheet.scroll_into_view_if_needed()
            page.screenshot(path=f"{SCREENSHOTS}/sheet-{count}-{size}.png")
        totals = sheet.locator("tfoot td")
        expect(totals).to_have_count(count)
        figures = [totals.nth(i).evaluate(FULLY_SHOWN) for i in range(count)]
        assert any(len(f["text"].lstrip("★−-")) >= 4 for f in figures), figures
        assert any(f["text"].startswith(("−", "-")) for f in figures), figures
        for figure in figures:
            assert figure["fits"] and figure["inside"], figures
        # Every running total in the rows too.
        cells = sheet.locator("tbody td")
        for i in range(cells.count()):
            shown = cells.nth(i).evaluate(FULLY_SHOWN)
            assert shown["fits"] and shown["inside"], shown
        # The bids in the first column are whole ("GC✗", not "GC…").
        for bid in sheet.locator("tbody .short-bid").all():
            assert bid.evaluate(NAME_SHOWN)["cut"] is False, bid.text_content()
        # Names: a short first name is shown whole; a long one keeps at least five letters,
        # and a tap shows it whole.
        names = sheet.locator("thead .player-name span")
        for i, name in enumerate(NAMES[:count]):
            shown = names.nth(i).evaluate(NAME_SHOWN)
            if len(name) <= 6:
                assert not shown["cut"], (name, shown)
            names.nth(i).tap()
            full = page.get_by_role("tooltip").or_(page.locator("[popover]:popover-open"))
            expect(full).to_be_visible()
            expect(full).to_contain_text(name)
            if SCREENSHOTS and i == 0:
                page.screenshot(path=f"{SCREENSHOTS}/sheet-names-{count}.png")
            page.keyboard.press("Escape")
            expect(full).to_be_hidden()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        page.context.close()
