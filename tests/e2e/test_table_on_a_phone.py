"""The deal-entry loop on a phone, at 390×844 and 320×640, by tapping like a scorer.

Count the pile and come back; ten deals in a row with the next form under the thumb; a
refused save shown in view whose address reloads; a save with the network cut, then Retry
(once); two phones saving the same deal number; the undo in view after a delete.
"""

from __future__ import annotations

import re
import time

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, Locator, Page, Route, expect

from scorekeeper.models import Deal
from tests.e2e.deal_taps import bid_cell, tap_bid, tap_partner
from tests.factories import NAMES, make_club, start_evening

SIZES = [
    pytest.param({"width": 390, "height": 844}, id="390x844"),
    pytest.param({"width": 320, "height": 640}, id="320x640"),
]
PLAYERS = NAMES[:5]
PILE = {"fives": "5", "fours": "2", "threes": "2", "twos": "1", "ones": "6"}  # 47 points
# A save answers in one request, but six developers share two cores: waits get some slack.
expect.set_options(timeout=15_000)
pytestmark = pytest.mark.django_db(transaction=True)


def wait_until(page: Page, expression: str, seconds: float = 10) -> None:
    """Poll a JavaScript expression until it is true. Playwright's wait_for_function
    compiles its predicate in the page, which the Content-Security-Policy forbids."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {seconds} s: {expression}"
        page.wait_for_timeout(50)


def phone(browser: Browser, live_server, user, viewport: dict[str, int]) -> Page:
    """A signed-in phone: a fresh browser context of that size."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, locale="en-GB", has_touch=True)
    context.set_default_timeout(10_000)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    return context.new_page()


@pytest.fixture
def table():
    club, players = make_club(players=PLAYERS)
    evening, game = start_evening(club, players)
    return club.memberships.get(role="owner").user, evening, game


def in_view(page: Page, locator: Locator) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def scroll_y(page: Page) -> float:
    return page.evaluate("window.scrollY")


def tap(form: Locator, group: str, label: str) -> None:
    choice = form.get_by_role("group", name=group, exact=True).get_by_label(label, exact=True)
    choice.tap()
    expect(choice).to_be_checked()


def fill_garde(form: Locator, taker: str, partner: str, points: str) -> None:
    tap_bid(form, taker, "Garde")
    tap_partner(form, partner)
    tap(form, "Bouts in the attack's tricks", "2")
    form.get_by_label("Points", exact=True).fill(points)
    expect(form.locator(".preview-scores li")).to_have_count(len(PLAYERS))


def open_evening(page: Page, live_server, evening) -> Locator:
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    return page.locator("form.deal-form")


@pytest.mark.parametrize("viewport", SIZES)
def test_count_the_pile_from_the_deal_form_and_come_back(
    live_server, browser: Browser, table, viewport
) -> None:
    user, evening, _game = table
    page = phone(browser, live_server, user, viewport)
    form = open_evening(page, live_server, evening)
    tap_bid(form, "Ben", "Garde")
    form.get_by_role("button", name="Count the pile").tap()
    expect(page).to_have_url(re.compile(r"/counter/\?"))
    assert "csrfmiddlewaretoken" not in page.url
    # A whole page: the site header, the heading and the counter's fields, not a bare block.
    expect(page.locator(".site-header")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    for name, value in PILE.items():
        page.fill(f"#id_{name}", value)
    page.locator('label.choice:has(input[name="attack_bouts"][value="2"])').click()
    expect(page.locator("#counter-summary")).to_contain_text("The attack has 47 points.")
    page.locator("#counter-summary").get_by_role("link", name="Use this result").tap()
    # The address is the evening's again: no one-time key, no answers in it.
    expect(page).to_have_url(re.compile(rf"/evenings/{evening.pk}/(#game-\d+)?$"))
    form = page.locator("form.deal-form")
    # The preview works on the answers at once, before anything is touched (no partner yet).
    expect(form.locator(".preview")).to_contain_text("Not complete yet")
    expect(form.get_by_label("Points", exact=True)).to_have_value("47")
    expect(bid_cell(form, "Ben", "Garde")).to_be_checked()
    page.context.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_ten_deals_in_a_row_with_the_next_question_under_the_thumb(
    live_server, browser: Browser, table, viewport
) -> None:
    user, evening, game = table
    page = phone(browser, live_server, user, viewport)
    open_evening(page, live_server, evening)
    for number in range(1, 11):
        section = page.locator(".deal-entry")
        form = section.locator("form.deal-form")
        expect(section.get_by_role("heading", level=2)).to_have_text(f"Deal {number}")
        taker, partner = PLAYERS[number % 5], PLAYERS[(number + 2) % 5]
        bonuses = form.locator("details.bonuses")
        if number == 1:  # the scorer opens the bonus section once: it stays open
            bonuses.locator("summary").tap()
        expect(bonuses).to_have_attribute("open", "")
        fill_garde(form, taker, partner, str(40 + number))
        form.get_by_role("button", name="Save the deal").tap()
        expect(section.locator(".messages")).to_contain_text(f"Deal {number} saved.")
        # No scrolling by the test from here: the next form's first question is in view,
        # focused, with the new totals and the deal's number.
        wait_until(page, "document.activeElement.closest('form.deal-form') !== null")
        before = scroll_y(page)
        first = page.locator("form.deal-form").get_by_role(
            "group", name="Taker and contract · called partner", exact=True
        )
        assert in_view(page, first.locator("legend"))
        assert in_view(page, first.locator("label").first)
        assert in_view(page, page.locator(".totals-strip"))
        assert page.evaluate("document.activeElement.closest('form.deal-form') !== null")
        assert scroll_y(page) == before
    assert list(game.deals.values_list("number", flat=True)) == list(range(1, 11))
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.context.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_a_refused_save_shows_what_is_wrong_in_view_and_the_address_reloads(
    live_server, browser: Browser, table, viewport
) -> None:
    user, evening, _game = table
    page = phone(browser, live_server, user, viewport)
    form = open_evening(page, live_server, evening)
    tap_bid(form, "Ana", "Garde")
    tap_partner(form, "Chloé")
    tap(form, "Bouts in the attack's tricks", "2")
    form.get_by_label("Points", exact=True).fill("95")
    form.get_by_role("button", name="Save the deal").tap()
    summary = page.locator(".error-summary")
    expect(summary).to_contain_text("The deal is not saved:")
    expect(summary).to_contain_text("Points go from 0 to 91.")
    expect(summary).to_be_focused()
    assert in_view(page, summary)
    # What was typed is kept.
    expect(page.get_by_label("Points", exact=True)).to_have_value("95")
    expect(bid_cell(page.locator("form.deal-form"), "Ana", "Garde")).to_be_checked()
    response = page.reload()
    assert response is not None and response.status == 200
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 1")
    assert not Deal.objects.exists()
    page.context.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_a_save_with_the_network_cut_is_kept_and_sent_once(
    live_server, browser: Browser, table, viewport
) -> None:
    """No network at Save: the deal waits on the phone and reaches the server once; an
    answer lost after the server stored the deal is sent again without making a copy."""
    user, evening, _game = table
    page = phone(browser, live_server, user, viewport)
    form = open_evening(page, live_server, evening)
    fill_garde(form, "Ana", "Chloé", "50")
    page.context.set_offline(True)
    form.get_by_role("button", name="Save the deal").tap()
    waiting = page.locator("#deal-queue li")
    expect(waiting).to_have_text([re.compile(r"^Deal 1\b.*waiting to be sent")])
    expect(page.locator("#deal-queue-count")).to_have_text("Waiting to be sent: 1")
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 2")  # ready for the next deal
    assert Deal.objects.count() == 0
    page.context.set_offline(False)
    expect(page.locator("#deal-queue")).to_have_count(0, timeout=15_000)
    assert Deal.objects.count() == 1
    # As the scorer waits for the screen to settle: the form the queue readied takes the
    # server's state (no longer "kept"); a tap while it moves could land beside (it did once,
    # in a fresh clone's make test, as in the tournament test).
    expect(page.locator("form.deal-form[data-stale]")).to_have_count(0)

    # The answer is lost after the server stored the deal (the phone still says it is online,
    # as on a cellar's Wi-Fi): the deal waits, and sending it again stores no copy.
    form = page.locator("form.deal-form")
    fill_garde(form, "Ben", "Dan", "60")
    lost: list[str] = []

    def lose_the_answer(route: Route) -> None:
        if not lost:
            route.fetch()  # the server saves the deal...
            lost.append(route.request.url)
            route.abort("internetdisconnected")  # ...and the phone never hears back
        elif route.request.service_worker is not None:
            # The worker's Background Sync stays in the cellar: it would otherwise send the
            # deal before the scorer taps "Send now" (it did, 2 runs in 5 on this machine).
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.context.route("**/deals/", lose_the_answer)  # the page's and the worker's requests
    form.get_by_role("button", name="Save the deal").tap()
    expect(waiting).to_have_text([re.compile(r"^Deal 2\b.*waiting to be sent")])
    assert Deal.objects.count() == 2
    waiting.get_by_role("button", name="Send now").tap()
    expect(page.locator("#deal-queue")).to_have_count(0, timeout=15_000)
    assert Deal.objects.count() == 2
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 3")
    page.context.unroute("**/deals/")
    page.context.close()


def test_without_a_queue_a_save_with_no_answer_offers_retry_that_saves_once(
    live_server, browser: Browser, table
) -> None:
    """The save-failed hand-off's own message, where nothing keeps the deal (no IndexedDB)."""
    user, evening, _game = table
    page = phone(browser, live_server, user, SIZES[0].values[0])
    page.add_init_script("delete window.indexedDB;")
    form = open_evening(page, live_server, evening)
    fill_garde(form, "Ana", "Chloé", "50")
    page.route("**/deals/", lambda route: route.abort("internetdisconnected"))
    form.get_by_role("button", name="Save the deal").tap()
    failed = form.locator(".save-failed")
    expect(failed).to_contain_text("The deal is not saved yet")
    assert Deal.objects.count() == 0
    page.unroute("**/deals/")
    failed.get_by_role("button", name="Retry").tap()
    expect(page.locator(".deal-entry .messages")).to_contain_text("Deal 1 saved.")
    assert Deal.objects.count() == 1
    page.context.close()


def test_an_offline_queue_can_take_a_failed_save_before_any_message(
    live_server, browser: Browser, table
) -> None:
    """The save-failed hand-off: the cancelable scorekeeper:save-failed event comes first."""
    user, evening, _game = table
    page = phone(browser, live_server, user, SIZES[0].values[0])
    form = open_evening(page, live_server, evening)
    # (evaluate, not a <script> tag: the Content-Security-Policy forbids inline scripts)
    page.evaluate(
        "document.addEventListener('scorekeeper:save-failed', (e) => {"
        " window.taken = e.detail.reason + ':' + e.detail.form.id; e.preventDefault(); })"
    )
    fill_garde(form, "Ana", "Chloé", "50")
    # The page's and the worker's requests: the queue that takes the deal sends it again
    # from the service worker (Background Sync), which a page route would not stop, and
    # that save would reach the server while the test's database is being emptied.
    page.context.route("**/deals/", lambda route: route.abort("internetdisconnected"))
    form.get_by_role("button", name="Save the deal").tap()
    wait_until(page, "window.taken !== undefined")
    assert page.evaluate("window.taken") == f"network:{form.get_attribute('id')}"
    expect(form.locator(".save-failed")).to_have_count(0)
    expect(page.locator("#deal-queue")).to_contain_text("waiting to be sent")
    assert Deal.objects.count() == 0
    page.context.close()  # with the route still in place: nothing is sent after the test


@pytest.mark.parametrize("viewport", SIZES)
def test_two_phones_saving_the_same_deal_number_get_the_question(
    live_server, browser: Browser, table, viewport
) -> None:
    user, evening, game = table
    first = phone(browser, live_server, user, viewport)
    second = phone(browser, live_server, user, viewport)
    form_one = open_evening(first, live_server, evening)
    form_two = open_evening(second, live_server, evening)
    fill_garde(form_two, "Ben", "Dan", "60")  # typed, not yet saved
    fill_garde(form_one, "Ana", "Chloé", "50")
    form_one.get_by_role("button", name="Save the deal").tap()
    expect(first.locator(".deal-entry .messages")).to_contain_text("Deal 1 saved.")

    form_two.get_by_role("button", name="Save the deal").tap()
    question = second.locator(".deal-conflict")
    expect(question).to_contain_text("Deal 1 was saved on another phone meanwhile.")
    expect(question).to_contain_text("Ana")
    expect(question).to_be_focused()
    assert in_view(second, question)
    assert Deal.objects.count() == 1
    question.get_by_role("button", name="Another deal — save as 2").tap()
    expect(second.locator(".deal-entry .messages")).to_contain_text("Deal 2 saved.")
    assert list(game.deals.values_list("number", "taker__name")) == [(1, "Ana"), (2, "Ben")]

    # The first phone's form, untouched since its save, follows: it is now for deal 3,
    # with the dealer after deal 2's.
    section = first.locator(".deal-entry")
    expect(section.get_by_role("heading", level=2)).to_have_text("Deal 3", timeout=15_000)
    expect(section.locator("input[name='deal-number']")).to_have_value("3")
    expect(section.locator("details.seating summary")).to_contain_text("Dealer: Chloé")
    first.context.close()
    second.context.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_the_undo_is_in_view_after_a_delete(live_server, browser: Browser, table, viewport) -> None:
    user, evening, _game = table
    page = phone(browser, live_server, user, viewport)
    form = open_evening(page, live_server, evening)
    for number, taker in enumerate(("Ana", "Ben", "Chloé"), start=1):
        fill_garde(page.locator("form.deal-form"), taker, "Eve", "50")
        page.locator("form.deal-form").get_by_role("button", name="Save the deal").tap()
        expect(page.locator(".deal-entry .messages")).to_contain_text(f"Deal {number} saved.")
    assert form  # the page kept one form throughout
    page.get_by_role("link", name="Edit deal 2", exact=True).tap()
    page.get_by_role("button", name="Delete deal 2").tap()
    undo = page.locator("form.undo")
    expect(undo).to_contain_text("Deal 2 deleted.")
    assert in_view(page, undo.get_by_role("button", name="Undo"))
    # Still offered when the scorer comes back to the evening a moment later.
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    expect(page.locator("form.undo")).to_contain_text("Deal 2 deleted.")
    page.locator("form.undo").get_by_role("button", name="Undo").tap()
    expect(page.locator(".messages")).to_contain_text("Deal 2 is back.")
    assert Deal.objects.count() == 3
    page.context.close()


def test_live_follow_says_when_the_server_is_lost_and_recovers_by_itself(
    live_server, browser: Browser, table
) -> None:
    user, evening, game = table
    page = phone(browser, live_server, user, SIZES[1].values[0])
    open_evening(page, live_server, evening)
    status = page.locator("#live-status")
    expect(status).to_be_hidden()
    page.route("**/live/?*", lambda route: route.abort("connectionrefused"))
    expect(status).to_be_visible()
    expect(status).to_contain_text("Live updates lost")
    page.unroute("**/live/?*")
    # Another phone saves meanwhile: once the server answers again, the page shows it.
    other = Client()
    other.force_login(user)
    other.post(
        f"/evenings/{evening.pk}/games/{game.pk}/deals/",
        {
            "deal-dealer": game.first_dealer_id,
            "deal-passed": "on",
            "deal-points_for": "attack",
            "deal-number": 1,
        },
    )
    assert game.deals.count() == 1
    expect(status).to_be_hidden(timeout=40_000)
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 2")
    expect(page.locator(".sheet tbody tr")).to_have_count(1)
    page.context.close()


def test_the_score_sheet_keeps_numbers_and_names_in_view_at_320(
    live_server, browser: Browser, table
) -> None:
    user, evening, _game = table
    page = phone(browser, live_server, user, SIZES[1].values[0])
    form = open_evening(page, live_server, evening)
    for number in range(1, 7):
        fill_garde(form, PLAYERS[number % 5], PLAYERS[(number + 1) % 5], "56")
        form.get_by_role("button", name="Save the deal").tap()
        expect(page.locator(".deal-entry .messages")).to_contain_text(f"Deal {number} saved.")
        form = page.locator("form.deal-form")
    sheet = page.locator(".sheet-wrap")
    # The wrapper scrolls, not the page: scroll it both ways like a thumb would.
    sheet.evaluate("wrap => { wrap.scrollLeft = wrap.scrollWidth; wrap.scrollTop = 120; }")
    box = sheet.bounding_box()
    number = page.locator(".sheet tbody tr").nth(4).locator("td").first
    name = page.locator(".sheet thead th").last
    for cell in (number, name, page.locator(".sheet thead th").first):
        cell_box = cell.bounding_box()
        assert (
            box["x"] - 1 <= cell_box["x"]
            and cell_box["x"] + cell_box["width"] <= box["x"] + box["width"] + 1
        )
        assert (
            box["y"] - 1 <= cell_box["y"]
            and cell_box["y"] + cell_box["height"] <= box["y"] + box["height"] + 1
        )
    # Each row carries the running totals; bonuses are marked in words.
    last = page.locator(".sheet tbody tr").last
    expect(last.locator(".running")).to_have_count(len(PLAYERS))
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    # On paper: one A4 page, no form.
    page.emulate_media(media="print")
    expect(page.locator("form.deal-form")).to_be_hidden()
    pdf = page.pdf(format="A4")
    assert (
        pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page/") + pdf.count(b"/Type /Page ") == 1
    )
    page.context.close()


def test_at_six_the_dealer_sitting_out_is_not_offered_as_taker(
    live_server, browser: Browser
) -> None:
    club, players = make_club(players=NAMES)
    evening, _game = start_evening(club, players)
    user = club.memberships.get(role="owner").user
    page = phone(browser, live_server, user, SIZES[1].values[0])
    form = open_evening(page, live_server, evening)
    expect(bid_cell(form, "Ana", "Garde")).to_be_hidden()  # Ana deals and sits out
    expect(bid_cell(form, "Ben", "Garde")).to_be_visible()
    # The table says Ben sits out instead: the pills follow.
    form.locator("details.seating summary").tap()
    sitting_out = form.get_by_role("group", name="Sitting out", exact=True)
    sitting_out.get_by_label("Ana", exact=True).tap()
    sitting_out.get_by_label("Ben", exact=True).tap()
    expect(bid_cell(form, "Ana", "Garde")).to_be_visible()
    expect(bid_cell(form, "Ben", "Garde")).to_be_hidden()
    page.context.close()


def test_live_follow_stops_while_the_tab_is_hidden(live_server, browser: Browser, table) -> None:
    user, evening, _game = table
    page = phone(browser, live_server, user, SIZES[1].values[0])
    asked: list[str] = []
    page.on("request", lambda request: "/live/" in request.url and asked.append(request.url))
    open_evening(page, live_server, evening)
    with page.expect_request(lambda request: "/live/" in request.url, timeout=15_000):
        pass  # every 4 s while shown
    page.evaluate(
        "Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});"
        "document.dispatchEvent(new Event('visibilitychange'));"
    )
    seen = len(asked)
    page.wait_for_timeout(9_000)
    assert len(asked) == seen
    with page.expect_request(lambda request: "/live/" in request.url, timeout=3_000):
        page.evaluate(  # shown again: asks at once
            "Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
            "document.dispatchEvent(new Event('visibilitychange'));"
        )
    page.context.close()


def test_a_save_answered_with_a_server_error_says_so_and_retry_saves(
    live_server, browser: Browser, table
) -> None:
    user, evening, _game = table
    page = phone(browser, live_server, user, SIZES[1].values[0])
    form = open_evening(page, live_server, evening)
    fill_garde(form, "Ana", "Chloé", "50")
    page.route("**/deals/", lambda route: route.fulfill(status=502, body="Bad gateway"))
    form.get_by_role("button", name="Save the deal").tap()
    failed = form.locator(".save-failed")
    expect(failed).to_contain_text("The server could not do it (error 502).")
    assert in_view(page, failed.get_by_role("button", name="Retry"))
    page.unroute("**/deals/")
    failed.get_by_role("button", name="Retry").tap()
    expect(page.locator(".deal-entry .messages")).to_contain_text("Deal 1 saved.")
    assert Deal.objects.count() == 1
    page.context.close()
