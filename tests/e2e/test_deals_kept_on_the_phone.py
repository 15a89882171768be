"""Deals kept on the phone while the server cannot be reached, at 390×844.

Back from the cellar, the whole entry section (strip, preview, dealer, number, the sheet)
shows the server's state without a reload, and the network message goes by itself; offline,
the form's dealer and number move on with every kept deal. On a shared phone the waiting
deals belong to the account that typed them: another account's page never sends them, and
signing out warns of them (and offers to send them first).
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from scorekeeper.models import Deal
from tests.e2e.deal_taps import bid_cell, partner_cell
from tests.e2e.test_one_deal_on_one_screen import WATCH_CSP
from tests.e2e.test_table_on_a_phone import SIZES
from tests.factories import NAMES, make_club, make_member, start_evening

PLAYERS = NAMES[:5]
expect.set_options(timeout=15_000)
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


@pytest.fixture
def table():
    club, players = make_club(players=PLAYERS)
    evening, game = start_evening(club, players)
    return club, evening, game


def sign_in(context: BrowserContext, live_server, user) -> None:
    """The phone's session becomes ``user``'s (as signing in on it would)."""
    client = Client()
    client.force_login(user)
    context.clear_cookies()
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )


def new_phone(browser: Browser, live_server, user) -> Page:
    context = browser.new_context(viewport=SIZES[0].values[0], locale="en-GB", has_touch=True)
    context.set_default_timeout(10_000)
    sign_in(context, live_server, user)
    return context.new_page()


def fill(page: Page, taker: str, partner: str, points: str) -> None:
    form = page.locator("form.deal-form")
    bid_cell(form, taker, "Garde").tap()
    partner_cell(form, partner).tap()
    form.get_by_role("group", name="Bouts in the attack's tricks", exact=True).get_by_label(
        "2", exact=True
    ).tap()
    form.get_by_label("Points", exact=True).fill(points)


def save(page: Page) -> None:
    page.locator("form.deal-form .save-deal").tap()


def test_back_from_the_cellar_the_entry_shows_the_servers_state(
    live_server, browser: Browser, table
) -> None:
    club, evening, game = table
    page = new_phone(browser, live_server, club.memberships.get().user)
    # The Content-Security-Policy is watched over the whole loop, offline and back.
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Refused" in m.text else None)
    page.add_init_script(WATCH_CSP)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    section = page.locator(".deal-entry")
    page.context.set_offline(True)
    # Offline, every kept deal moves the number and the dealer on.
    for number, dealer in enumerate(("Ana", "Ben", "Chloé"), start=1):
        expect(section.locator("h2")).to_have_text(f"Deal {number}")
        expect(section.locator("details.seating summary")).to_contain_text(f"Dealer: {dealer}")
        fill(page, PLAYERS[number], PLAYERS[number + 1], str(45 + number))
        save(page)
        expect(page.locator("#deal-queue li")).to_have_count(number)
    expect(section.locator("h2")).to_have_text("Deal 4")
    expect(section.locator("details.seating summary")).to_contain_text("Dealer: Dan")
    expect(page.locator(".next-dealer strong")).to_have_text("Dan")
    # Queued deals name each answer's question.
    expect(page.locator("#deal-queue li").first).to_contain_text("Taker: Ben")
    expect(page.locator("#deal-queue li").first).to_contain_text("Points: 46")
    assert Deal.objects.count() == 0

    page.context.set_offline(False)
    expect(page.locator("#deal-queue")).to_have_count(0)
    assert list(game.deals.values_list("number", "dealer__name")) == [
        (1, "Ana"),
        (2, "Ben"),
        (3, "Chloé"),
    ]
    # No reload: the strip, the preview, the dealer, the number and the sheet agree with the
    # server, and no network message stays.
    expect(section.locator("h2")).to_have_text("Deal 4")
    expect(page.locator(".sheet tbody tr")).to_have_count(3)
    totals = {s.player.name: 0 for s in game.seats.select_related("player")}
    for deal in game.deals.prefetch_related("scores__player"):
        for score in deal.scores.all():
            totals[score.player.name] += score.score
    strip = page.locator(".deal-entry .strip-scores li")
    expect(strip).to_have_count(5)
    for name, total in totals.items():
        expect(strip.filter(has_text=name)).to_contain_text(str(total))
    expect(section.locator(".preview")).not_to_contain_text("Kept on this phone")
    expect(section.locator("details.seating summary")).to_contain_text("Dealer: Dan")
    expect(page.locator("#net-status")).to_be_hidden()
    assert not page.evaluate("location.search")
    # A fourth deal, online again, saved the usual way.
    fill(page, "Eve", "Ben", "70")
    save(page)
    expect(page.locator(".deal-entry .saved-note")).to_contain_text("Deal 4 saved.")
    assert refused == [] and page.evaluate("window.__violations || []") == []
    page.context.close()


def test_a_lost_answer_resolved_brings_the_strip_up_to_date(
    live_server, browser: Browser, table
) -> None:
    club, evening, game = table
    page = new_phone(browser, live_server, club.memberships.get().user)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    lost: list[str] = []

    def lose_the_answer(route: Route) -> None:
        if not lost:
            route.fetch()  # the server saves the deal...
        lost.append(route.request.url)
        route.abort("internetdisconnected")  # ...and the phone never hears back

    page.context.route("**/deals/", lose_the_answer)  # the page's and the worker's requests
    fill(page, "Ben", "Dan", "60")
    save(page)
    expect(page.locator("#deal-queue li")).to_have_count(1)
    assert game.deals.count() == 1
    page.context.unroute("**/deals/")
    page.evaluate("window.SKDealQueuePage.send()")  # "Send now" (or the worker's sync) resolves it
    expect(page.locator("#deal-queue")).to_have_count(0)
    assert game.deals.count() == 1
    expect(page.locator(".deal-entry .strip-scores li")).to_have_count(5)
    expect(page.locator(".sheet tbody tr")).to_have_count(1)
    expect(page.locator(".deal-entry .preview")).not_to_contain_text("Kept on this phone")
    page.context.close()


def test_on_a_shared_phone_waiting_deals_go_only_under_the_account_that_typed_them(
    live_server, browser: Browser, table
) -> None:
    club, evening, game = table
    ana = club.memberships.get().user
    ben = make_member(club, "ben@example.com", "Ben")
    page = new_phone(browser, live_server, ana)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    page.context.route("**/deals/", lambda route: route.abort("internetdisconnected"))
    for number in (1, 2):
        fill(page, PLAYERS[number], PLAYERS[number + 2], str(50 + number))
        save(page)
        expect(page.locator("#deal-queue li")).to_have_count(number)
    # Signing out warns that deals are waiting; Ana signs out anyway.
    page.locator("form.sign-out button").tap()
    warning = page.locator("#sign-out-warning")
    expect(warning).to_contain_text("wait to be sent: 2")
    expect(warning.get_by_role("button", name="Send them first")).to_be_focused()
    warning.get_by_role("button", name="Sign out anyway").tap()
    expect(page.locator(".site-header")).to_contain_text("Sign in")
    page.context.unroute("**/deals/")

    # Ben signs in on the same phone: Ana's deals are listed as hers, and never sent.
    sign_in(page.context, live_server, ben)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    waiting = page.locator("#deal-queue li")
    expect(waiting).to_have_count(2)
    expect(waiting.first).to_contain_text("typed by Ana")
    expect(waiting.first.get_by_role("button")).to_have_count(0)
    expect(page.locator("#deal-queue-count")).to_have_count(0)
    # Sent as the service worker would (no account given): the server refuses them, they wait.
    page.evaluate("SKDealQueue.sendAll()")
    page.wait_for_timeout(500)
    assert Deal.objects.count() == 0
    assert page.evaluate("SKDealQueue.all().then((all) => all.map((e) => e.status))") == [
        "waiting",
        "waiting",
    ]
    # Ben's own deal goes as usual, as deal 1 (Ana's are not on the server).
    fill(page, "Chloé", "Eve", "61")
    save(page)
    expect(page.locator(".deal-entry .saved-note")).to_contain_text("Deal 1 saved.")
    # Ben signs out as Ana did (nothing of his waits, so no warning). Signing Ana in under the
    # evening page instead raced its requests after the save: one of them, answered after the
    # cookies were cleared, set another CSRF cookie than Ana's new page was drawn with.
    page.locator("form.sign-out button").tap()
    expect(page.locator(".site-header")).to_contain_text("Sign in")

    # Ana comes back: her deals go under her name; Ben took deal 1 meanwhile, so she is asked.
    sign_in(page.context, live_server, ana)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    first = page.locator("#deal-queue li").first
    expect(first).to_contain_text("Another phone saved deal 1 meanwhile.")
    first.get_by_role("button", name="Another deal — save as 2").tap()
    expect(page.locator("#deal-queue")).to_have_count(0)
    names = game.deals.order_by("number").values_list("created_by__display_name", flat=True)
    assert list(names) == ["Ben", "Ana", "Ana"]
    page.context.close()


def test_signing_out_can_send_the_waiting_deals_first(live_server, browser: Browser, table) -> None:
    club, evening, game = table
    page = new_phone(browser, live_server, club.memberships.get().user)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    # No way to the server until the warning is up: the service worker's Background Sync (or
    # the page's timer) would otherwise send the deal between the save and the sign-out, and
    # there would be nothing to warn of (it did so once in CI, on a slow worker start).
    cut = [True]

    def cellar(route: Route) -> None:
        if cut[0]:
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.context.route("**/deals/", cellar)  # the page's and the worker's requests
    fill(page, "Ben", "Dan", "55")
    save(page)
    expect(page.locator("#deal-queue li")).to_have_count(1)
    page.locator("form.sign-out button").tap()
    warning = page.locator("#sign-out-warning")
    expect(warning).to_contain_text("wait to be sent: 1")
    assert game.deals.count() == 0
    cut[0] = False
    warning.get_by_role("button", name="Send them first").tap()
    expect(page).to_have_url(re.compile(r"/(login/)?$"))
    expect(page.locator(".site-header")).to_contain_text("Sign in")
    assert game.deals.count() == 1
    page.context.close()
