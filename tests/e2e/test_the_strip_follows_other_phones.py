"""The totals strip above the deal form follows every live answer, at 390×844 and 320×640.

A correction made on another phone changes the totals but not the next deal's number: the
strip still shows the new totals, as the cards and the sheet beside it do, without a save
or a reload; typing in the form keeps what is typed while the strip follows.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.deal_taps import bid_cell
from tests.e2e.test_table_on_a_phone import PLAYERS, SIZES, fill_garde, phone, wait_until
from tests.factories import make_club, start_evening

expect.set_options(timeout=15_000)
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


@pytest.fixture
def table():
    club, players = make_club(players=PLAYERS)
    evening, game = start_evening(club, players)
    return club.memberships.get(role="owner").user, evening, game


def totals_of(game) -> dict[str, int]:
    totals = {seat.player.name: 0 for seat in game.seats.select_related("player")}
    for deal in game.deals.prefetch_related("scores__player"):
        for score in deal.scores.all():
            totals[score.player.name] += score.score
    return totals


def strip(page: Page) -> dict[str, str]:
    return page.evaluate(
        """() => Object.fromEntries(Array.from(
             document.querySelectorAll('.deal-entry .strip-scores li'),
             (li) => [li.querySelector('span').textContent,
                      li.querySelector('strong').textContent]))"""
    )


def save(page: Page, taker: str, partner: str, points: str) -> None:
    form = page.locator("form.deal-form")
    fill_garde(form, taker, partner, points)
    form.get_by_role("button", name="Save the deal").tap()


def poll_now(page: Page) -> None:
    """The live poll's next question asked now (or as soon as the one on its way is answered),
    not up to 4 s later: what is tested is what its answer does (the poll's timer has its
    own tests, in test_table_on_a_phone.py)."""
    page.evaluate("window.SKSheet.refresh()")


@pytest.mark.parametrize("viewport", SIZES)
def test_a_correction_on_another_phone_reaches_the_strip_without_a_save(
    live_server, browser: Browser, table, viewport
) -> None:
    user, evening, game = table
    mine = phone(browser, live_server, user, viewport)
    mine.goto(f"{live_server.url}/evenings/{evening.pk}/")
    for number, (taker, points) in enumerate((("Ana", "56"), ("Ben", "40")), start=1):
        save(mine, taker, "Eve", points)
        expect(mine.locator(".deal-entry h2")).to_have_text(f"Deal {number + 1}")
    before = {name: str(total) for name, total in totals_of(game).items()}
    wait_until(mine, "document.querySelectorAll('.deal-entry .strip-scores li').length === 5")
    assert strip(mine) == before

    # The other phone corrects deal 1: Ana's garde falls (36 points instead of 56).
    other = phone(browser, live_server, user, viewport)
    other.goto(f"{live_server.url}/evenings/{evening.pk}/")
    other.get_by_role("link", name="Edit deal 1", exact=True).tap()
    other.locator("form.deal-form").get_by_label("Points", exact=True).fill("36")
    other.get_by_role("button", name="Save the correction").tap()
    expect(other.locator(".deal-entry h2")).to_have_text("Deal 3")
    after = {name: str(total) for name, total in totals_of(game).items()}
    assert after != before
    poll_now(mine)

    # This phone, untouched since its save: the cards and the strip both follow.
    for name, total in after.items():
        expect(mine.locator(f'#live-totals .total-score[data-player="{name}"]')).to_have_text(total)
    expect(mine.locator(".deal-entry .strip-scores li").first).to_contain_text(after["Ana"])
    assert strip(mine) == after

    # Typing in the form keeps what is typed; a later correction still reaches the strip.
    bid_cell(mine.locator("form.deal-form"), "Dan", "Garde").tap()
    other.get_by_role("link", name="Edit deal 2", exact=True).tap()
    other.locator("form.deal-form").get_by_label("Points", exact=True).fill("60")
    other.get_by_role("button", name="Save the correction").tap()
    expect(other.locator(".deal-entry h2")).to_have_text("Deal 3")
    latest = {name: str(total) for name, total in totals_of(game).items()}
    poll_now(mine)
    expect(mine.locator('#live-totals .total-score[data-player="Ben"]')).to_have_text(latest["Ben"])
    expect(mine.locator(".deal-entry .strip-scores li").nth(1)).to_contain_text(latest["Ben"])
    assert strip(mine) == latest
    expect(bid_cell(mine.locator("form.deal-form"), "Dan", "Garde")).to_be_checked()
    other.context.close()
    mine.context.close()
