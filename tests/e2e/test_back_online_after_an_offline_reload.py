"""A reload in the cellar, then the network back, at 390×844 and 320×640.

The service worker answers the reload from the page's last copy ("Offline — as of HH:MM")
and the deals wait on the phone. When the network comes back the deals are sent, and within
a few seconds, without a reload, the page shows the server's state: no offline banner, the
cards, the strip and the sheet with the deals sent, the next deal's form. "Deal 1 saved"
goes as soon as a later deal is kept on the phone.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.deal_taps import bid_cell, partner_cell
from tests.e2e.test_table_on_a_phone import PLAYERS, SIZES, fill_garde
from tests.factories import make_club, start_evening

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]
FEW_SECONDS = 8_000  # the poll's pace is 4 s; sending two deals takes a moment


@pytest.fixture
def table():
    club, players = make_club(players=PLAYERS)
    evening, game = start_evening(club, players)
    return club.memberships.get(role="owner").user, evening, game


def worker_phone(browser: Browser, live_server, user, viewport: dict[str, int]) -> BrowserContext:
    context = browser.new_context(
        viewport=viewport, locale="en-GB", has_touch=True, service_workers="allow"
    )
    context.set_default_timeout(10_000)
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )
    return context


def save(page: Page, taker: str, partner: str, points: str, *, offline: bool = False) -> None:
    """Answer a garde and tap Save (offline, no score shows before Save)."""
    form = page.locator("form.deal-form")
    if not offline:
        fill_garde(form, taker, partner, points)
    else:
        bid_cell(form, taker, "Garde").tap()
        partner_cell(form, partner).tap()
        bouts = form.get_by_role("group", name="Bouts in the attack's tricks", exact=True)
        bouts.get_by_label("2", exact=True).tap()
        form.get_by_label("Points", exact=True).fill(points)
    form.get_by_role("button", name="Save the deal").tap()


def totals_of(game) -> dict[str, str]:
    totals = {seat.player.name: 0 for seat in game.seats.select_related("player")}
    for deal in game.deals.prefetch_related("scores__player"):
        for score in deal.scores.all():
            totals[score.player.name] += score.score
    return {name: str(total) for name, total in totals.items()}


@pytest.mark.parametrize("viewport", SIZES)
def test_after_a_reload_offline_the_page_shows_the_servers_state_once_the_deals_are_sent(
    live_server, browser: Browser, table, viewport
) -> None:
    user, evening, game = table
    context = worker_phone(browser, live_server, user, viewport)
    url = live_server.url + reverse("evening", args=[evening.pk])
    page = context.new_page()
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    save(page, "Ana", "Eve", "56")
    expect(page.locator(".saved-note")).to_contain_text("Deal 1 saved.")

    context.set_offline(True)
    save(page, "Ben", "Dan", "40", offline=True)
    expect(page.locator("#deal-queue li")).to_have_count(1)
    # Deal 2 waits on the phone: "Deal 1 saved" is no longer the latest news.
    expect(page.locator(".saved-note")).to_have_count(0)
    save(page, "Chloé", "Ana", "61", offline=True)
    expect(page.locator("#deal-queue li")).to_have_count(2)
    page.reload()
    expect(page.locator(".offline-banner")).to_have_text(re.compile(r"^Offline — as of \d\d:\d\d$"))
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 4")
    assert game.deals.count() == 1

    context.set_offline(False)
    expect(page.locator("#deal-queue")).to_have_count(0)
    assert list(game.deals.values_list("number", flat=True)) == [1, 2, 3]
    totals = totals_of(game)
    # Within a few seconds, no reload: the server's state everywhere.
    expect(page.locator(".offline-banner")).to_have_count(0, timeout=FEW_SECONDS)
    for name, total in totals.items():
        expect(page.locator(f'#live-totals .total-score[data-player="{name}"]')).to_have_text(
            total, timeout=FEW_SECONDS
        )
        expect(page.locator(".deal-entry .strip-scores li").filter(has_text=name)).to_contain_text(
            total, timeout=FEW_SECONDS
        )
    expect(page.locator(".sheet tbody tr:not(.queued-row)")).to_have_count(3, timeout=FEW_SECONDS)
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 4")
    expect(page.locator(".deal-entry .preview")).not_to_contain_text("No network")
    expect(page.locator("#live-totals")).not_to_have_class(re.compile("provisional"))
    assert not page.evaluate("document.documentElement.classList.contains('is-offline-copy')")
    context.close()
