"""A reload in the middle of a deal loses nothing, at 390×844 and 320×640.

The answers typed (a counted pile included) come back into the form of the same deal with
"Draft restored" and a way to discard them. The draft goes when its deal is saved, here or
on another phone, and when it is discarded; it never goes into another deal's form, and
another account on the same phone never sees it.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.deal_taps import bid_cell, partner_cell, tap_bid
from tests.e2e.test_deals_kept_on_the_phone import sign_in
from tests.e2e.test_table_on_a_phone import PILE, PLAYERS, SIZES, fill_garde, phone, tap
from tests.factories import make_club, make_member, start_evening

expect.set_options(timeout=15_000)
pytestmark = pytest.mark.django_db(transaction=True)
DRAFT = "Draft restored: this deal as you left it."


@pytest.fixture
def table():
    club, players = make_club(players=PLAYERS)
    evening, game = start_evening(club, players)
    return club, evening, game


def entry(page: Page) -> Locator:
    return page.locator("form.deal-form")


def checked(form: Locator, group: str, label: str) -> Locator:
    return form.get_by_role("group", name=group, exact=True).get_by_label(label, exact=True)


def blank(form: Locator) -> None:
    """The server's form of the next deal: nothing answered, no draft."""
    expect(form.locator(".draft-note")).to_have_count(0)
    expect(form.locator("input[name='deal-bid']:checked")).to_have_count(0)
    expect(form.get_by_label("Points", exact=True)).to_have_value("")


@pytest.mark.parametrize("viewport", SIZES)
def test_a_reload_brings_the_answers_back_until_the_deal_is_saved(
    live_server, browser: Browser, table, viewport
) -> None:
    club, evening, game = table
    page = phone(browser, live_server, club.memberships.get().user, viewport)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    form = entry(page)
    fill_garde(form, "Ben", "Dan", "48")
    form.locator("details.bonuses summary").tap()
    tap(form, "Petit au bout", "Attack")
    page.reload()
    form = entry(page)
    expect(form.locator(".draft-note")).to_contain_text(DRAFT)
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 1")
    expect(bid_cell(form, "Ben", "Garde")).to_be_checked()
    expect(partner_cell(form, "Dan")).to_be_checked()
    for group, label in (
        ("Bouts in the attack's tricks", "2"),
        ("Petit au bout", "Attack"),
    ):
        expect(checked(form, group, label)).to_be_checked()
    expect(form.get_by_label("Points", exact=True)).to_have_value("48")
    expect(form.locator(".preview-scores li")).to_have_count(len(PLAYERS))
    # Saved as restored: the deal stored is the one typed, and the draft is done.
    form.get_by_role("button", name="Save the deal").tap()
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 2")
    deal = game.deals.get()
    assert (deal.taker.name, deal.partner.name, deal.contract, str(deal.points)) == (
        "Ben",
        "Dan",
        "garde",
        "48.0",
    )
    assert deal.petit_au_bout == "attack"
    page.reload()
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 2")
    blank(entry(page))
    page.context.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_a_counted_pile_survives_a_reload_and_a_discarded_draft_is_gone(
    live_server, browser: Browser, table, viewport
) -> None:
    club, evening, _game = table
    page = phone(browser, live_server, club.memberships.get().user, viewport)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    form = entry(page)
    tap_bid(form, "Chloé", "Garde")
    form.get_by_role("button", name="Count the pile").tap()
    expect(page).to_have_url(re.compile(r"/counter/\?"))
    for name, value in PILE.items():
        page.fill(f"#id_{name}", value)
    page.locator('label.choice:has(input[name="attack_bouts"][value="2"])').click()
    page.locator("#counter-summary").get_by_role("link", name="Use this result").tap()
    expect(entry(page).get_by_label("Points", exact=True)).to_have_value("47")
    # deal-draft.js keeps the counted pile once the page has loaded (after the offline
    # queue's readiness): a reload before that moment, which no thumb is quick enough for,
    # would find nothing kept yet.
    page.wait_for_function(
        "() => Object.keys(localStorage).some((key) => key.startsWith('sk-draft:'))"
    )
    page.reload()
    form = entry(page)
    expect(form.locator(".draft-note")).to_contain_text(DRAFT)
    expect(form.get_by_label("Points", exact=True)).to_have_value("47")
    expect(bid_cell(form, "Chloé", "Garde")).to_be_checked()
    # Discarded: the form as the server gave it, and a reload brings nothing back.
    form.get_by_role("button", name="Discard the draft").tap()
    blank(form)
    page.reload()
    blank(entry(page))
    page.context.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_a_draft_is_its_accounts_and_its_deals_only(
    live_server, browser: Browser, table, viewport
) -> None:
    club, evening, game = table
    ana = club.memberships.get().user
    ben = make_member(club, "ben@example.com", "Ben")
    page = phone(browser, live_server, ana, viewport)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    form = entry(page)
    tap_bid(form, "Eve", "Petite")
    # Ben signs in on the same phone: Ana's draft is not his.
    sign_in(page.context, live_server, ben)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    expect(page.locator(".site-header")).to_contain_text("Ben")
    blank(entry(page))
    # Back to Ana: her draft is there for deal 1.
    sign_in(page.context, live_server, ana)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    form = entry(page)
    expect(form.locator(".draft-note")).to_contain_text(DRAFT)
    expect(bid_cell(form, "Eve", "Petite")).to_be_checked()
    # Another phone saves deal 1: Ana's draft of deal 1 never goes into deal 2's form.
    other = phone(browser, live_server, ben, viewport)
    other.goto(f"{live_server.url}/evenings/{evening.pk}/")
    fill_garde(entry(other), "Ana", "Chloé", "55")
    entry(other).get_by_role("button", name="Save the deal").tap()
    expect(other.locator(".deal-entry h2")).to_have_text("Deal 2")
    assert game.deals.count() == 1
    page.reload()
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 2")
    blank(entry(page))
    other.context.close()
    page.context.close()
