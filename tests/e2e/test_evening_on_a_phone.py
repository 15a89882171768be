"""Around the deals, on a phone (390×844): starting an evening by tapping names in seat
order, the next question in view after a correction and after an Undo, and the read-only
link's QR code open where the owner made it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_table_on_a_phone import SIZES, in_view, phone
from tests.factories import NAMES, make_club, start_evening

PLAYERS = NAMES[:5]
expect.set_options(timeout=15_000)
pytestmark = pytest.mark.django_db(transaction=True)


def first_question_in_view(page: Page) -> bool:
    grid = page.locator("form.deal-form .bid-grid")
    return in_view(page, grid.locator("label.bid-cell").first)


def test_an_evening_starts_by_tapping_the_players_in_seat_order(
    live_server, browser: Browser
) -> None:
    club, _players = make_club(players=PLAYERS)
    page = phone(browser, live_server, club.memberships.get().user, SIZES[0].values[0])
    page.goto(live_server.url + reverse("evening_new", args=[club.pk]))
    target = page.get_by_role("group", name="L'escopette: played to")
    expect(target).to_be_hidden()  # French Tarot is chosen
    taps = 0
    names = page.locator(".seat-picker-names")
    for name in ("Chloé", "Ana", "Eve", "Ben", "Dan"):
        names.get_by_role("button", name=re.compile(name)).tap()
        taps += 1
    expect(page.get_by_label("Seat 1", exact=True)).to_have_value(
        str(club.players.get(name="Chloé").pk)
    )
    expect(names.get_by_role("button", name=re.compile("Eve"))).to_have_attribute(
        "aria-pressed", "true"
    )
    # A second tap takes a player out; the next tap fills the seat left empty.
    names.get_by_role("button", name=re.compile("Ben")).tap()
    expect(page.get_by_label("Seat 4", exact=True)).to_have_value("")
    names.get_by_role("button", name=re.compile("Ben")).tap()
    page.get_by_role("button", name="Start the evening").tap()
    taps += 3
    expect(page).to_have_url(re.compile(r"/evenings/\d+/"))
    assert taps <= 8
    evening = club.evenings.get()
    seated = evening.games.get().seats.order_by("position").values_list("player__name", flat=True)
    assert list(seated) == ["Chloé", "Ana", "Eve", "Ben", "Dan"]
    expect(page.locator(".deal-entry details.seating summary")).to_contain_text("Dealer: Chloé")
    # L'escopette's target shows once L'escopette is chosen.
    page.goto(live_server.url + reverse("evening_new", args=[club.pk]))
    page.get_by_role("group", name="Game").locator("label", has_text="L'escopette").tap()
    expect(page.get_by_role("group", name="L'escopette: played to")).to_be_visible()
    page.context.close()


def test_after_a_correction_and_after_an_undo_the_next_question_is_in_view(
    live_server, browser: Browser
) -> None:
    club, players = make_club(players=PLAYERS)
    evening, _game = start_evening(club, players)
    page = phone(browser, live_server, club.memberships.get().user, SIZES[1].values[0])
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    assert first_question_in_view(page)  # arriving
    for number in (1, 2):
        form = page.locator("form.deal-form")
        form.get_by_label("Everyone passed").check()
        form.locator(".save-deal").tap()
        expect(page.locator(".saved-note")).to_contain_text(f"Deal {number} saved.")
    page.get_by_role("link", name="Edit deal 1", exact=True).tap()
    page.locator("form.deal-form .save-deal").tap()  # saved as it was: a correction
    expect(page).to_have_url(re.compile(rf"/evenings/{evening.pk}/(#game-\d+)?$"))
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 3")
    assert first_question_in_view(page)
    page.get_by_role("link", name="Edit deal 2", exact=True).tap()
    page.get_by_role("button", name="Delete deal 2").tap()
    undo = page.locator("form.undo")
    expect(undo).to_contain_text("Deal 2 deleted.")
    assert in_view(page, undo.get_by_role("button", name="Undo"))
    assert first_question_in_view(page)
    undo.get_by_role("button", name="Undo").tap()
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 3")
    assert first_question_in_view(page)
    page.context.close()


def test_the_read_only_link_opens_its_qr_code_where_it_was_made(
    live_server, browser: Browser
) -> None:
    club, players = make_club(players=PLAYERS)
    evening, _game = start_evening(club, players)
    page = phone(browser, live_server, club.memberships.get().user, SIZES[0].values[0])
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    page.get_by_role("button", name="Make a read-only link").tap()
    tools = page.locator("#owner-tools")
    expect(tools.locator("details.qr-details")).to_have_attribute("open", "")
    assert in_view(page, tools.get_by_role("heading", name="For the owner"))
    page.context.close()
