"""Setting up a tournament on a phone (390×844), from the club page to round 1's table
cards, counting what the organiser does as tests/e2e/test_one_deal_on_one_screen.py's
Scorer does: taps, keys and swipes (a target out of the screen is swiped to first).

The night of issue 39: 16 players, 9 of them the club's and 7 guests, 3 rounds of 4 deals.
Before (the club's players chosen one at a time in a list, each guest typed and registered
alone): 48 taps and 49 keys, 97 inputs, 3 swipes (this test's way of counting; the issue
counted 98 and 13). Now the club's players are ticked, the guests typed one a line (or
pasted: then 4 keys instead of 38), the name is ready to keep: at most 60 inputs, and
every target tapped is at least 44 px.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, Locator, Page, expect

from scorekeeper import services
from scorekeeper.models import Tournament
from tests.factories import make_club, make_user
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = ["Alice", "Bruno", "Chloé", "Denis", "Emma", "Fabien", "Gilles", "Hélène", "Inès"]
GUESTS = ["Jules", "Karim", "Léa", "Marc", "Nadia", "Oscar", "Paula"]


class Organiser:
    """Taps and types on a phone, counting taps, keys and swipes."""

    def __init__(self, page: Page) -> None:
        self.page, self.taps, self.keys, self.swipes = page, 0, 0, 0

    @property
    def inputs(self) -> int:
        return self.taps + self.keys

    def reach(self, target: Locator) -> None:
        box = target.bounding_box()
        assert box is not None
        if box["y"] < 0 or box["y"] + box["height"] > self.page.viewport_size["height"]:
            self.swipes += 1
            target.evaluate("node => node.scrollIntoView({block: 'center'})")

    def tap(self, target: Locator) -> None:
        self.reach(target)
        box = target.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box  # a thumb's target
        target.tap()
        self.taps += 1

    def type(self, target: Locator, text: str) -> None:
        target.press_sequentially(text)
        self.keys += len(text)

    def replace(self, target: Locator, text: str) -> None:
        self.tap(target)
        for _old in target.input_value():
            target.press("Backspace")
            self.keys += 1
        self.type(target, text)


def organiser_page(browser: Browser, live_server, user, viewport: dict) -> Page:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, locale="en-GB", has_touch=True)
    context.set_default_timeout(15_000)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    return context.new_page()


def test_from_the_club_page_to_round_ones_table_cards_in_at_most_60_inputs(
    live_server, browser: Browser
) -> None:
    owner = make_user("ana@example.com")
    club, _players = make_club(owner, players=MEMBERS)
    page = organiser_page(browser, live_server, owner, {"width": 390, "height": 844})
    page.goto(f"{live_server.url}/clubs/{club.pk}/")
    me = Organiser(page)
    me.tap(page.get_by_role("link", name="Tournaments", exact=True).last)
    expect(page.get_by_label("Name")).not_to_have_value("")  # a name ready to keep
    me.replace(page.get_by_label("Rounds"), "3")
    me.replace(page.get_by_label("Deals per round"), "4")
    me.tap(page.get_by_role("button", name="Create the tournament"))
    expect(page).to_have_url(re.compile(r"/players/$"))
    picks = page.get_by_role("group", name="Players of the club")
    for name in MEMBERS:
        me.tap(picks.locator("label.choice", has_text=name))
    guests = page.get_by_label("Guests, one a line")
    me.tap(guests)
    me.type(guests, "\n".join(GUESTS))
    me.tap(page.get_by_role("button", name="Register"))
    expect(page.locator(".messages")).to_contain_text("are registered")
    expect(page.locator(".lead")).to_contain_text("16 players present")
    me.tap(page.get_by_role("button", name="Seat the first round"))
    expect(page).to_have_url(re.compile(r"/rounds/1/cards/$"))
    expect(page.locator(".table-card")).to_have_count(4)
    tournament = Tournament.objects.get()
    assert (tournament.rounds, tournament.deals_per_round) == (3, 4)
    assert tournament.entrants.filter(guest=True).count() == len(GUESTS)
    print(f"\nsetting up: {me.taps} taps, {me.keys} keys, {me.inputs} inputs, {me.swipes} swipes")
    # 4 swipes since the form asks free or duplicate and the method (3 before; 13 in the issue)
    assert me.inputs <= 60 and me.swipes <= 4, (me.taps, me.keys, me.swipes)
    page.context.close()


def test_every_link_and_button_of_the_organisers_pages_is_at_least_44_px_tall(
    live_server, browser: Browser
) -> None:
    _club, _players, tournament = make_tournament(8, rounds=2, deals=2)
    owner = tournament.club.memberships.get(role="owner").user
    services.round_start(tournament=tournament, created_by=owner)
    page = organiser_page(browser, live_server, owner, {"width": 390, "height": 844})
    base = f"{live_server.url}/tournaments/{tournament.pk}"
    small: list[tuple[str, str, float]] = []
    for path in ("/", "/players/", "/rounds/1/tables/1/", "/rounds/1/close/"):
        page.goto(base + path)
        for target in page.locator("main a:visible, main button:visible").all():
            box = target.bounding_box()
            if box is not None and box["height"] < 44:
                small.append((path, target.inner_text()[:40], box["height"]))
    assert small == []
    page.context.close()
