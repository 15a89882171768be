"""A refused action says why, in the app's layout, with a way back (issue 36, item 6): the
owner closes the evening on one phone while a member, on another, taps "Start another game"."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from tests.e2e.test_table_on_a_phone import SIZES, phone
from tests.factories import NAMES, make_club, make_member, start_evening

expect.set_options(timeout=15_000)
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("viewport", SIZES)
def test_a_member_tapping_on_an_evening_the_owner_closed_reads_why_and_goes_back(
    live_server, browser: Browser, viewport: dict[str, int]
) -> None:
    club, players = make_club(players=NAMES[:5])
    owner = club.memberships.get(role="owner").user
    member = make_member(club)
    evening, _game = start_evening(club, players)
    url = live_server.url + reverse("evening", args=[evening.pk])
    members_phone = phone(browser, live_server, member, viewport)
    members_phone.goto(url)
    owners_phone = phone(browser, live_server, owner, viewport)
    owners_phone.goto(url)

    owners_phone.get_by_role("button", name="Close the evening").tap()
    expect(owners_phone.get_by_text("Closed: read-only")).to_be_visible()

    members_phone.get_by_role("link", name="Start another game").tap()
    heading = members_phone.get_by_role("heading", level=1)
    expect(heading).to_have_text("This evening is closed.")
    expect(members_phone.locator(".site-header")).to_contain_text("Ben")  # the app's layout
    expect(members_phone.get_by_text("Nothing was changed.")).to_be_visible()
    back = members_phone.get_by_role("link", name="Back to the evening")
    expect(back).to_be_visible()
    fits = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    assert members_phone.evaluate(fits)  # nothing to scroll sideways, even at 320 px

    back.tap()
    expect(members_phone).to_have_url(url)
    expect(members_phone.get_by_text("Closed: read-only")).to_be_visible()
    assert evening.games.count() == 1
    members_phone.context.close()
    owners_phone.context.close()
