"""Undo, the recently deleted deals and a deal's history, in Chromium, as a person does it.

Issue 11: a double-click on Undo restored the deal twice (1 time in 5); item 12 adds the
deleted deals' page (reached from the evening page) and each deal's history.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import Deal
from scorekeeper.scoring.tarot import TarotDeal
from tests.e2e.signing_in import sign_in_by_code

EMAIL = "tina@example.com"


def _evening(deals: int):
    owner = User.objects.create_user(EMAIL, display_name="Tina")
    club = services.club_create(name="Les Bouts", owner=owner)
    players = [services.player_add(club=club, name=n) for n in ("Ana", "Ben", "Chloé", "Dan")]
    evening = services.evening_start(
        club=club, players=players, first_dealer=players[0], created_by=owner
    )
    game = evening.games.get()
    seated = tuple(p.pk for p in players)
    for index in range(deals):
        services.deal_record(
            game=game,
            inputs=TarotDeal(
                seated=seated,
                taker=seated[index % 4],
                contract="garde",
                bouts=2,
                points=Decimal(41 + index),
            ),
            created_by=owner,
        )
    return evening, game


def _points(game) -> list[Decimal]:
    return list(Deal.objects.filter(game=game).order_by("number").values_list("points", flat=True))


@pytest.mark.django_db(transaction=True)
@pytest.mark.both_databases
def test_a_double_click_on_undo_restores_the_deal_once(live_server, page: Page) -> None:
    evening, game = _evening(3)
    before = _points(game)
    sign_in_by_code(page, live_server.url, EMAIL, "Tina")
    for _round in range(3):
        page.goto(live_server.url + reverse("evening", args=[evening.pk]))
        page.get_by_role("link", name="Edit deal 2").click()
        page.get_by_role("button", name="Delete deal 2").click()
        expect(page.locator(".undo")).to_contain_text("Deal 2 deleted.")
        page.locator(".undo").get_by_role("button", name="Undo").dblclick()
        # The page shows the answer to the click the browser kept: the first ("is back"),
        # or the second, sent before the first came back ("is already back"). Either way,
        # once restored.
        expect(page.locator(".messages")).to_contain_text(re.compile(r"is (already )?back"))
        assert _points(game) == before


@pytest.mark.django_db(transaction=True)
def test_deleted_deals_come_back_in_their_original_order(live_server, page: Page) -> None:
    evening, game = _evening(5)
    before = _points(game)
    sign_in_by_code(page, live_server.url, EMAIL, "Tina")
    for number in (2, 4):  # the original 2nd, then the original 5th
        page.goto(live_server.url + reverse("evening", args=[evening.pk]))
        page.get_by_role("link", name=f"Edit deal {number}").click()
        page.get_by_role("button", name=f"Delete deal {number}").click()
    page.set_viewport_size({"width": 320, "height": 700})
    page.get_by_role("link", name="Recently deleted deals").click()
    expect(page.get_by_role("heading", name="Recently deleted deals")).to_be_visible()
    expect(page.locator(".deleted-deal")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.get_by_role("button", name="Restore all 2 deals, in their original order").click()
    expect(page.locator(".messages")).to_contain_text("2 deals are back at their numbers.")
    assert _points(game) == before

    page.get_by_role("link", name="Edit deal 5").click()
    history = page.locator(".deal-history")
    expect(history).to_contain_text("Recorded")
    expect(history).to_contain_text("Deleted")
    expect(history).to_contain_text("Restored")
    expect(history).to_contain_text("by Tina")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
