"""Inputs and swipes per kind of deal at 390×844 and 320×640, counted as a scorer taps:
the taker and the contract are one tap of the grid, so a plain deal at five players takes 6
inputs (test_one_deal_on_one_screen.py counts eight of them at each size), and a deal with a
bonus needs no swipe at 390 px, here. The figures are kept in the README ("The phone's
figures")."""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import Browser, Locator, expect

from scorekeeper import services
from scorekeeper.scoring.tarot import TarotDeal
from tests.e2e.deal_taps import bid_cell, partner_cell
from tests.e2e.test_one_deal_on_one_screen import PLAYERS, Scorer
from tests.e2e.test_table_on_a_phone import SIZES, phone, wait_until
from tests.factories import make_club, start_evening

expect.set_options(timeout=15_000)
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table():
    club, players = make_club(players=PLAYERS)
    evening, game = start_evening(club, players)
    return club.memberships.get(role="owner").user, evening, game


def bonus_deal(scorer: Scorer, number: int) -> tuple[int, int]:
    """A garde with the petit au bout for the attack and a simple poignée."""
    page = scorer.page
    before = (scorer.inputs, scorer.swipes)
    form = page.locator(".deal-entry form.deal-form")
    expect(page.locator(".deal-entry h2")).to_have_text(f"Deal {number}")
    scorer.tap_cell(bid_cell(form, PLAYERS[number % 5], "Garde"))
    scorer.tap_cell(partner_cell(form, PLAYERS[(number + 2) % 5]))
    scorer.choose(form, "Bouts in the attack's tricks", "2")
    bonuses = form.locator("details.bonuses")
    if bonuses.get_attribute("open") is None:
        scorer.tap(bonuses.locator("summary"))
    petit = form.get_by_role("group", name="Petit au bout", exact=True)
    pill: Locator = petit.locator("label.choice", has_text="Attack")
    scorer.tap(pill)
    simple = form.locator("#id_deal-poignee_simple")
    scorer.tap(simple)
    simple.press_sequentially("1")
    scorer.inputs += 1
    scorer.type_points(form, str(45 + number % 9))
    expect(form.locator(".preview-scores li")).to_have_count(len(PLAYERS))
    scorer.save(form)
    expect(page.locator(".deal-entry .saved-note")).to_contain_text(f"Deal {number} saved.")
    wait_until(page, "document.activeElement.closest('form.deal-form') !== null")
    return scorer.inputs - before[0], scorer.swipes - before[1]


def four_plain_deals(game) -> None:
    """Deals 1 to 4 as test_one_deal_on_one_screen's plain_deal enters them, stored by the
    service: that test counts their inputs and swipes, here they only fill the sheet."""
    seated = tuple(game.seats.order_by("position").values_list("player_id", flat=True))
    ids = dict(game.seats.values_list("player__name", "player_id"))
    for number in range(1, 5):
        services.deal_record(
            game=game,
            inputs=TarotDeal(
                seated=seated,
                taker=ids[PLAYERS[number % 5]],
                partner=ids[PLAYERS[(number + 2) % 5]],
                contract="garde",
                bouts=2,
                points=Decimal(40 + number),
            ),
        )


@pytest.mark.parametrize("viewport", SIZES)
def test_after_four_plain_deals_a_bonus_deal_takes_no_swipe_at_390(
    live_server, browser: Browser, table, viewport
) -> None:
    user, evening, game = table
    four_plain_deals(game)
    page = phone(browser, live_server, user, viewport)
    scorer = Scorer(page)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    bonus = [bonus_deal(scorer, number) for number in range(5, 9)]
    width = viewport["width"]
    print(
        f"\n{width}x{viewport['height']}: bonus deal inputs {[n for n, _s in bonus]}, "
        f"swipes {[s for _n, s in bonus]}"
    )
    if width == 390:
        assert max(s for _n, s in bonus) == 0
    assert game.deals.count() == 8
    assert all(deal.petit_au_bout == "attack" for deal in game.deals.filter(number__gte=5))
    page.context.close()
