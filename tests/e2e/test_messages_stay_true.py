"""Messages go when they stop being true, at 390×844.

"Deal 2 is back." goes with the next deal saved; so does the Undo of a deletion (also after a
reload of the address the deletion left); "The club … is ready." goes once players are added.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_table_on_a_phone import PLAYERS, SIZES, fill_garde, phone
from tests.factories import make_club, make_user, start_evening

expect.set_options(timeout=15_000)
pytestmark = pytest.mark.django_db(transaction=True)
PHONE = SIZES[0].values[0]


@pytest.fixture
def table():
    club, players = make_club(players=PLAYERS)
    evening, game = start_evening(club, players)
    return club.memberships.get(role="owner").user, evening, game


def save(page: Page, number: int, taker: str) -> None:
    form = page.locator("form.deal-form")
    fill_garde(form, taker, "Eve", "50")
    form.get_by_role("button", name="Save the deal").tap()
    expect(page.locator(".deal-entry h2")).to_have_text(f"Deal {number + 1}")


def delete(page: Page, number: int) -> None:
    page.get_by_role("link", name=f"Edit deal {number}", exact=True).tap()
    page.get_by_role("button", name=f"Delete deal {number}").tap()
    expect(page.locator("form.undo")).to_contain_text(f"Deal {number} deleted.")


def test_deal_back_and_the_undo_go_once_a_new_deal_is_saved(
    live_server, browser: Browser, table
) -> None:
    user, evening, _game = table
    page = phone(browser, live_server, user, PHONE)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    for number, taker in enumerate(("Ana", "Ben", "Chloé"), start=1):
        save(page, number, taker)
    delete(page, 2)
    page.locator("form.undo").get_by_role("button", name="Undo").tap()
    expect(page.locator(".flash-messages")).to_contain_text("Deal 2 is back.")
    save(page, 4, "Dan")
    expect(page.get_by_text("Deal 2 is back.")).to_have_count(0)

    delete(page, 4)
    undone_at = page.url
    save(page, 4, "Eve")
    expect(page.locator("form.undo")).to_have_count(0)
    # The address the deletion left (?undo=…) no longer offers it either.
    page.goto(undone_at)
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 5")
    expect(page.locator("form.undo")).to_have_count(0)
    page.context.close()


def test_the_club_is_ready_goes_once_players_are_added(live_server, browser: Browser) -> None:
    user = make_user("tina@example.com", "Tina")
    page = phone(browser, live_server, user, PHONE)
    page.goto(live_server.url + reverse("club_new"))
    page.get_by_label("Name of the club").fill("Les Tarotiers")
    page.get_by_role("button", name="Create the club").tap()
    expect(page.locator(".flash-messages")).to_contain_text("The club Les Tarotiers is ready.")
    page.get_by_label("Name of the player").fill("Ana")
    page.get_by_role("button", name="Add", exact=True).tap()
    expect(page.locator("#players")).to_contain_text("Ana")
    expect(page.get_by_text("is ready.")).to_have_count(0)
    page.context.close()
