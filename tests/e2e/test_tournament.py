"""A whole tournament in the browser: 16 players, 3 rounds of 2 deals, four phones.

The organiser seats each round and opens its table cards; each table's phone (a fresh
browser context, no account, 390 px wide) opens the link its card's QR code holds and
enters the table's deals, one table with the network cut for a deal; the organiser closes
each round; the public ranking is the sum of the scores the scoring package gives.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, Locator, Page, expect

from scorekeeper.models import Tournament, TournamentTable
from scorekeeper.scoring.seating import repeated_meetings
from scorekeeper.scoring.tarot import TarotDeal, score_deal
from tests.e2e.conftest import PHONE
from tests.e2e.deal_taps import tap_bid
from tests.scorekeeper.tournament_factories import make_tournament

expect.set_options(timeout=15_000)
pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS, DEALS, TABLES = 3, 2, 4


def organiser_page(browser: Browser, live_server, user) -> Page:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True)
    context.set_default_timeout(15_000)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    return context.new_page()


def table_phone(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True)
    context.set_default_timeout(15_000)
    return context.new_page()


def tap(form: Locator, group: str, label: str) -> None:
    choice = form.get_by_role("group", name=group, exact=True).get_by_label(label, exact=True)
    # Back from offline the form the queue readied stays: one tap is enough.
    choice.tap()
    expect(choice).to_be_checked()


def enter_deal(page: Page, number: int, taker: str, points: int, *, offline: bool = False) -> None:
    section = page.locator(".deal-entry")
    expect(section.get_by_role("heading", level=2)).to_have_text(f"Deal {number}")
    form = section.locator("form.deal-form")
    tap_bid(form, taker, "Garde")
    tap(form, "Bouts in the attack's tricks", "2")
    form.get_by_label("Points", exact=True).fill(str(points))
    expect(form.locator(".preview-scores li")).to_have_count(4)
    if offline:
        page.context.set_offline(True)
    form.get_by_role("button", name="Save the deal").tap()
    if offline:
        expect(page.locator("#deal-queue-count")).to_have_text("Waiting to be sent: 1")
        page.context.set_offline(False)
        expect(page.locator("#deal-queue")).to_have_count(0, timeout=20_000)
        # As the scorer waits for the screen to settle: the form the queue readied takes the
        # server's state (no longer "kept"); a tap while it moves could land beside.
        expect(page.locator("form.deal-form[data-stale]")).to_have_count(0)
    else:
        expect(section.locator(".messages")).to_contain_text(f"Deal {number} saved.")


def test_a_tournament_of_sixteen_players_scored_by_four_phones(
    live_server, browser: Browser
) -> None:
    _club, _players, tournament = make_tournament(16, rounds=ROUNDS, deals=DEALS)
    owner = tournament.club.memberships.get(role="owner").user
    organiser = organiser_page(browser, live_server, owner)
    phones = [table_phone(browser) for _table in range(TABLES)]
    expected: dict[str, int] = {}
    organiser.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    for number in range(1, ROUNDS + 1):
        start = "Seat the first round" if number == 1 else "Start the next round"
        organiser.get_by_role("button", name=start).tap()
        expect(organiser).to_have_url(re.compile(rf"/rounds/{number}/cards/$"))
        expect(organiser.locator(".table-card .qr-code")).to_have_count(TABLES)
        for index, phone in enumerate(phones, start=1):
            # The card's QR code holds its link; the phone "scans" it by opening it.
            link = organiser.locator(f"#table-{index} .table-link a").get_attribute("href")
            phone.goto(link)
            expect(phone).to_have_url(re.compile(r"/evenings/\d+/$"))
            table = TournamentTable.objects.get(token=link.rstrip("/").rsplit("/", 1)[1])
            seated = [seat.player.name for seat in table.game.seats.order_by("position")]
            for deal in range(1, DEALS + 1):
                taker, points = seated[(deal + index) % 4], 35 + 7 * deal + index + number
                offline = number == 2 and index == 1 and deal == 1
                enter_deal(phone, deal, taker, points, offline=offline)
                scores = score_deal(
                    TarotDeal(
                        seated=tuple(seated),
                        taker=taker,
                        contract="garde",
                        bouts=2,
                        points=Decimal(points),
                    )
                )
                for name, score in scores.items():
                    expected[name] = expected.get(name, 0) + score
        organiser.get_by_role("link", name=tournament.name).first.tap()
        progress = organiser.locator(f"#round-{number}")
        expect(progress.locator(".table-done")).to_have_count(TABLES)
        progress.get_by_role("button", name=f"Close round {number}").tap()
        expect(organiser.locator(".messages")).to_contain_text(f"Round {number} is closed.")
        # The round closed: its links score no more.
        phones[0].reload()
        expect(phones[0].locator("form.deal-form")).to_have_count(0)

    rounds: dict[int, list[list[int]]] = {}
    for table in TournamentTable.objects.filter(round__tournament=tournament):
        seats = list(table.game.seats.values_list("player_id", flat=True))
        rounds.setdefault(table.round.number, []).append(seats)
    assert repeated_meetings(rounds.values()) == 0
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED

    public_url = organiser.locator("a[href*='/ranking/']").first.get_attribute("href")
    public = table_phone(browser)
    public.goto(public_url)
    rows = public.locator("table.ranking tbody tr")
    expect(rows).to_have_count(16)
    shown = {
        rows.nth(i).locator("th").inner_text(): int(rows.nth(i).locator("td.total").inner_text())
        for i in range(16)
    }
    assert shown == expected
    totals = [shown[rows.nth(i).locator("th").inner_text()] for i in range(16)]
    assert totals == sorted(totals, reverse=True)
    for page in [organiser, public, *phones]:
        page.context.close()
