"""A phone shared by two people: the pages the service worker kept belong to one account.

A browses a club's evening (the worker keeps its last copy); B signs in on the same browser
without A signing out; offline, B gets the offline page, never A's evening.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, expect

from tests.e2e.signing_in import sign_in_by_code
from tests.e2e.test_installable_offline import open_controlled, phone
from tests.factories import make_club, make_user, start_evening

PLAYERS = ("Ana", "Ben", "Chloé", "Dan")


@pytest.fixture
def table(db):
    owner = make_user("tina@example.com", "Tina")
    club, players = make_club(owner, players=PLAYERS)
    evening, _game = start_evening(club, players)
    return owner, club, evening


@pytest.fixture
def context(browser: Browser, live_server, table) -> Iterator[BrowserContext]:
    context = phone(browser, live_server, table[0])
    yield context
    context.close()


@pytest.mark.django_db(transaction=True)
def test_another_account_signing_in_drops_the_pages_kept_for_the_first(
    live_server, context: BrowserContext, table
) -> None:
    _owner, club, evening = table
    evening_url = live_server.url + reverse("evening", args=[evening.pk])
    club_url = live_server.url + reverse("club", args=[club.pk])
    page = open_controlled(context, evening_url)
    page.goto(club_url)
    expect(page.get_by_role("heading", level=1)).to_contain_text(club.name)
    # Kept for Tina: offline, her evening opens from its last copy.
    context.set_offline(True)
    page.goto(evening_url)
    expect(page.locator(".offline-banner")).to_be_visible()
    context.set_offline(False)

    # Bob signs in on the same phone; Tina never signed out.
    sign_in_by_code(page, live_server.url, "bob@example.com", "Bob")

    context.set_offline(True)
    for url in (evening_url, club_url):
        page.goto(url)
        expect(page.get_by_role("heading", level=1)).to_have_text("No network")
        expect(page.get_by_text(club.name)).to_have_count(0)
