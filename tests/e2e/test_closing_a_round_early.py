"""A round closed early, in the browser, at 390×844 and 320×640: the organiser is asked
first and told which table is short; a table's phone saving after the close is told in
words and keeps what it typed, with no Save left; the organiser adds the missing deal."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, Locator, Page, expect

from scorekeeper import services
from scorekeeper.models import DealChange, TournamentTable
from scorekeeper.scoring.tarot import TarotDeal
from tests.e2e.deal_taps import bid_cell, tap_bid
from tests.scorekeeper.tournament_factories import make_tournament

expect.set_options(timeout=15_000)
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


def _context_page(browser: Browser, viewport: dict, cookie: str | None, url: str) -> Page:
    context = browser.new_context(viewport=viewport, locale="en-GB", has_touch=True)
    context.set_default_timeout(15_000)
    if cookie:
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])
    return context.new_page()


def _tap(form: Locator, group: str, label: str) -> None:
    choice = form.get_by_role("group", name=group, exact=True).get_by_label(label, exact=True)
    choice.tap()
    expect(choice).to_be_checked()


def _fill_deal(form: Locator, taker: str, points: str) -> None:
    tap_bid(form, taker, "Garde")
    _tap(form, "Bouts in the attack's tricks", "2")
    form.get_by_label("Points", exact=True).fill(points)


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 320, "height": 640}])
def test_a_round_closed_early_asks_first_words_the_phone_and_takes_the_missing_deal(
    live_server, browser: Browser, viewport: dict
) -> None:
    _club, _players, tournament = make_tournament(8, rounds=2, deals=2)
    owner = tournament.club.memberships.get(role="owner").user
    started = services.round_start(tournament=tournament, created_by=owner)
    short, done = started.tables.select_related("game").order_by("number")
    for table, count in ((short, 1), (done, 2)):
        seated = tuple(table.game.seats.order_by("position").values_list("player_id", flat=True))
        for _n in range(count):
            services.deal_record(
                game=table.game,
                inputs=TarotDeal(
                    seated=seated, taker=seated[0], contract="garde", bouts=2, points=50
                ),
            )
    # Table 1's phone scans its card and types its second deal.
    phone = _context_page(browser, viewport, None, live_server.url)
    phone.goto(f"{live_server.url}/t/{short.token}/")
    expect(phone).to_have_url(re.compile(r"/evenings/\d+/$"))
    names = [s.player.name for s in short.game.seats.order_by("position")]
    form = phone.locator(".deal-entry form.deal-form")
    _fill_deal(form, names[2], "63")
    expect(form.locator(".preview-scores li")).to_have_count(4)

    # The organiser closes the round: asked first, told which table is short.
    client = Client()
    client.force_login(owner)
    organiser = _context_page(
        browser, viewport, client.cookies[settings.SESSION_COOKIE_NAME].value, live_server.url
    )
    organiser.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    organiser.locator("#round-1").get_by_role("button", name="Close round 1").tap()
    expect(organiser.get_by_role("heading", level=1)).to_have_text("Close round 1?")
    warning = organiser.locator(".round-short")
    expect(warning).to_contain_text("Table 1: 1 of 2 deals, 1 missing")
    expect(warning).not_to_contain_text("Table 2")
    organiser.get_by_role("button", name="Close round 1 anyway").tap()
    expect(organiser.locator(".messages")).to_contain_text("Round 1 is closed.")
    expect(organiser.locator("#round-1 .badge")).to_contain_text("closed on")
    row = organiser.locator("#round-1 li[data-table='1']")
    expect(row).to_contain_text("closed with 1 of 2 deals: 1 missing")

    # The phone saves after the close: told in words, what it typed stays, no Save.
    form.get_by_role("button", name="Save the deal").tap()
    closed = phone.locator(".round-closed-entry")
    expect(closed).to_contain_text("The organiser has closed round 1")
    expect(closed).to_contain_text("This deal was not saved")
    expect(closed.get_by_label("Points", exact=True)).to_have_value("63")
    expect(bid_cell(closed, names[2], "Garde")).to_be_checked()
    expect(phone.get_by_role("button", name="Save the deal")).to_have_count(0)
    expect(phone.locator(".save-failed")).to_have_count(0)  # no "error 404. Retry"
    words = closed.locator(".round-closed-words")
    box = words.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]

    # The organiser adds the missing deal, from what the phone shows.
    row.get_by_role("link", name="Add a missing deal").tap()
    expect(organiser.get_by_role("heading", level=1)).to_have_text("Add deal 2")
    add = organiser.locator("form.deal-form")
    _fill_deal(add, names[2], "63")
    add.get_by_role("button", name="Add the deal").tap()
    expect(organiser.locator(".messages")).to_contain_text("Deal 2 added.")
    expect(organiser.locator("table.table-deals tbody tr")).to_have_count(2)
    table = TournamentTable.objects.get(pk=short.pk)
    added = table.game.deals.get(number=2)
    assert DealChange.objects.get(deal=added).by == owner
    organiser.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(organiser.locator("#round-1 .table-done")).to_have_count(2)
    for page in (phone, organiser):
        page.context.close()
