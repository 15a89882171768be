"""A tap meant for the deal just saved never changes or submits the next one, and Back after
a save never fills a form with a deal already stored.

At 390×844 and 320×640, like a scorer: Save tapped, then the very same point tapped again
once the answer has landed, at several delays, with the bonus section open (Save low) and
with the keyboard up (Save at the bottom). Then Back to the counter page of a saved deal,
and its "Use this result".
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from scorekeeper import services
from scorekeeper.models import Deal
from tests.e2e.deal_taps import tap_bid, tap_partner
from tests.e2e.test_table_on_a_phone import PILE, SIZES, fill_garde, phone, wait_until
from tests.factories import NAMES, make_club, start_evening

PLAYERS = NAMES[:5]
KEYBOARD = {390: 336, 320: 260}  # the numeric keyboard's height, as on a phone
expect.set_options(timeout=15_000)
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

# What the form holds, minus what differs from one drawing to the next (token and key).
FORM_STATE = """form => Array.from(new FormData(form).entries())
  .filter(([name]) => name !== 'csrfmiddlewaretoken' && name !== 'deal-idempotency_key')
  .map(([name, value]) => name + '=' + value).sort().join('&')"""


@pytest.fixture
def table():
    club, players = make_club(players=PLAYERS)
    evening, game = start_evening(club, players)
    return club.memberships.get(role="owner").user, evening, game


def double_tap_save(page: Page, form: Locator, number: int, delay: int) -> None:
    """Tap Save, wait for the answer, and tap the same point again ``delay`` ms later."""
    box = form.locator(".save-deal").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    expect(page.locator(".deal-entry .saved-note")).to_contain_text(f"Deal {number} saved.")
    page.wait_for_timeout(delay)
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(1500)  # whatever that tap could start has started by now


@pytest.mark.parametrize("viewport", SIZES)
def test_a_second_tap_on_save_leaves_the_next_deal_untouched_and_the_deals_exact(
    live_server, browser: Browser, table, viewport
) -> None:
    user, evening, game = table
    page = phone(browser, live_server, user, viewport)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    typed: list[tuple[int, str, Decimal]] = []
    trials = [(0, "bonuses"), (250, "keyboard"), (450, "bonuses"), (600, "keyboard")]
    for number, (delay, where) in enumerate(trials, start=1):
        form = page.locator("form.deal-form")
        expect(page.locator(".deal-entry h2")).to_have_text(f"Deal {number}")
        taker, partner, points = PLAYERS[number % 5], PLAYERS[(number + 2) % 5], 40 + number
        bonuses = form.locator("details.bonuses")
        if where == "bonuses" and bonuses.get_attribute("open") is None:
            bonuses.locator("summary").tap()
        fill_garde(form, taker, partner, str(points))
        size = page.viewport_size
        if where == "keyboard":  # the numeric keyboard is up: Save sits at the very bottom
            form.get_by_label("Points", exact=True).focus()
            page.set_viewport_size({**size, "height": size["height"] - KEYBOARD[size["width"]]})
        form.locator(".save-deal").evaluate("node => node.scrollIntoView({block: 'nearest'})")
        double_tap_save(page, form, number, delay)
        typed.append((number, taker, Decimal(points)))
        # The note is still true, nothing was refused, and the next form is as drawn.
        expect(page.locator(".deal-entry .saved-note")).to_contain_text(f"Deal {number} saved.")
        expect(page.locator(".error-summary")).to_have_count(0)
        expect(page.locator(".deal-entry h2")).to_have_text(f"Deal {number + 1}")
        after_taps = page.locator("form.deal-form").evaluate(FORM_STATE)
        page.set_viewport_size(size)
        page.reload()
        assert page.locator("form.deal-form").evaluate(FORM_STATE) == after_taps, (delay, where)
        wait_until(page, "document.querySelector('section.deal-entry') !== null")
    stored = list(game.deals.order_by("number").values_list("number", "taker__name", "points"))
    assert stored == typed
    # Each stored deal scored from the attack's side: the taker of a garde made by 10 or more
    # (2 bouts, 41 needed) wins.
    for deal in Deal.objects.filter(game=game):
        assert deal.scores.get(player=deal.taker).score > 0, deal.number
    page.context.close()


def count_the_pile(page: Page) -> None:
    for name, value in PILE.items():
        page.fill(f"#id_{name}", value)
    page.locator('label.choice:has(input[name="attack_bouts"][value="2"])').click()
    expect(page.locator("#counter-summary")).to_contain_text("The attack has 47 points.")
    page.locator("#counter-summary").get_by_role("link", name="Use this result").tap()


@pytest.mark.parametrize("viewport", SIZES)
def test_back_to_the_count_of_a_saved_deal_fills_nothing_and_the_dealer_follows_the_deals(
    live_server, browser: Browser, table, viewport
) -> None:
    user, evening, game = table
    page = phone(browser, live_server, user, viewport)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    form = page.locator("form.deal-form")
    tap_bid(form, "Ben", "Garde")
    tap_partner(form, "Dan")
    form.get_by_role("button", name="Count the pile").tap()
    expect(page).to_have_url(re.compile(r"/counter/\?"))
    count_the_pile(page)
    form = page.locator("form.deal-form")
    expect(form.get_by_label("Points", exact=True)).to_have_value("47")
    expect(form.locator(".preview-scores li")).to_have_count(len(PLAYERS))
    form.locator(".save-deal").tap()
    expect(page.locator(".saved-note")).to_contain_text("Deal 1 saved.")
    wait_until(page, "document.activeElement.closest('form.deal-form') !== null")
    form = page.locator("form.deal-form")
    fill_garde(form, "Chloé", "Eve", "52")
    form.locator(".save-deal").tap()
    expect(page.locator(".saved-note")).to_contain_text("Deal 2 saved.")
    wait_until(page, "document.activeElement.closest('form.deal-form') !== null")
    # Back: the counter page of deal 1, and its "Use this result" again.
    page.go_back()
    expect(page).to_have_url(re.compile(r"/counter/\?"))
    page.locator("#counter-summary").get_by_role("link", name="Use this result").tap()
    expect(page.locator(".messages")).to_contain_text(
        "The count brought back was for deal 1, which is saved already"
    )
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 3")
    form = page.locator("form.deal-form")
    expect(form.get_by_label("Points", exact=True)).to_have_value("")
    expect(form.locator("input[name='deal-bid']:checked")).to_have_count(0)
    expect(page.locator(".saved-note")).to_have_count(0)  # nothing says "saved"
    assert Deal.objects.filter(game=game).count() == 2
    dealer = services.next_dealer(game, services.present_players(game))
    fill_garde(form, "Dan", "Ana", "60")
    form.locator(".save-deal").tap()
    expect(page.locator(".saved-note")).to_contain_text("Deal 3 saved.")
    stored = list(game.deals.order_by("number").values_list("number", "points"))
    assert stored == [(1, Decimal(47)), (2, Decimal(52)), (3, Decimal(60))]
    assert Deal.objects.get(game=game, number=3).dealer_id == dealer.pk
    page.context.close()
