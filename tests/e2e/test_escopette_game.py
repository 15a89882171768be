"""A whole game of L'escopette to 50, in Chromium at phone size (390×844), as a person plays it.

Sign in with the e-mailed code, start an evening of L'escopette from the club page, try to
save a deal with the 20 missing, then enter three deals by tapping the pills: after the
second, two players share the lead at 50 and the game goes on; the third makes one player
win alone. The totals on screen must equal what the pure scoring service computes.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from scorekeeper.models import Deal
from scorekeeper.scoring.escopette import STAKE_TRUMPS, EscopetteDeal, escopette_game
from tests.e2e.signing_in import sign_in_by_code
from tests.factories import make_club, make_user

EMAIL = "tina@example.com"
PLAYERS = ("Ana", "Ben", "Chloé", "Dan")  # seat order
TARGET = 50


def won(*winners: str) -> dict[int, str]:
    """Who won each stake trump, in the order 1, 2, 3, 4, 5, 6, 7, 12, 20."""
    assert len(winners) == len(STAKE_TRUMPS)
    return dict(zip(STAKE_TRUMPS, winners, strict=True))


# Each deal hands out the 60 points.
DEALS = [
    # Ana 25, Ben 25, Chloé 6, Dan 4.
    won("Chloé", "Chloé", "Chloé", "Dan", "Ana", "Ben", "Ben", "Ben", "Ana"),
    # Ana 50, Ben 50: a tie at the top, at the target, so another deal. Chloé 9, Dan 11.
    won("Chloé", "Chloé", "Dan", "Dan", "Ana", "Ben", "Ben", "Ben", "Ana"),
    # Ana 70, alone in the lead: she wins. Ben 62, Chloé 27, Dan 21.
    won("Dan", "Dan", "Dan", "Dan", "Chloé", "Chloé", "Chloé", "Ben", "Ana"),
]
TIED_AFTER = 2


def tap_choice(scope: Locator, group: str, label: str) -> None:
    """Tap one pill of a group of radio buttons and see it selected."""
    choice = scope.get_by_role("group", name=group, exact=True).get_by_label(label, exact=True)
    choice.tap()
    expect(choice).to_be_checked()


def tap_stake(form: Locator, stake: int, name: str) -> None:
    """Tap the winner's pill in the row (fieldset) whose legend is the stake number."""
    row = form.locator("fieldset.stake").filter(
        has=form.page.locator("legend", has_text=re.compile(rf"^\s*{stake}\s*$"))
    )
    pill = row.locator("label.choice").filter(has=form.page.get_by_text(name, exact=True))
    pill.tap()
    expect(pill.locator("input")).to_be_checked()


@pytest.mark.django_db(transaction=True)
def test_a_game_of_escopette_to_50(live_server, page: Page) -> None:
    owner = make_user(EMAIL, "Tina")
    club, _players = make_club(owner, players=PLAYERS, name="Les Escopettes")
    sign_in_by_code(page, live_server.url, EMAIL, "Tina")

    # The evening, from the club page: L'escopette to 50, the four players in seat order.
    page.goto(live_server.url + reverse("club", args=[club.pk]))
    page.get_by_role("link", name="Start an evening").tap()
    tap_choice(page, "Game", "L'escopette")
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).select_option(label=name)
    tap_choice(page, "L'escopette: played to", "50 points")
    page.get_by_role("button", name="Start the evening").tap()
    expect(page).to_have_url(re.compile(r"/evenings/\d+/"))

    entry = page.locator(".deal-entry")
    form = entry.locator("form.escopette-form")
    preview = form.locator(".preview-result")

    # A deal with the 20 missing is refused, and nothing is saved.
    expect(entry.get_by_role("heading", level=2)).to_have_text("Deal 1")
    missing = {stake: name for stake, name in DEALS[0].items() if stake != 20}
    for stake, name in missing.items():
        tap_stake(form, stake, name)
    expect(preview).to_have_text(f"Given so far: {sum(missing)} of 60")
    form.get_by_role("button", name="Save the deal").tap()
    expect(form.locator("#id_deal-stake_20-group .errorlist")).to_have_text("Who won the 20?")
    expect(entry.get_by_role("heading", level=2)).to_have_text("Deal 1")
    expect(page.locator(".score-sheet")).to_contain_text("No deal yet.")
    assert Deal.objects.count() == 0

    # The deals, tapped pill by pill; each save reloads the page (hx-boost).
    for number, stakes in enumerate(DEALS, start=1):
        expect(entry.get_by_role("heading", level=2)).to_have_text(f"Deal {number}")
        for stake, name in stakes.items():
            tap_stake(form, stake, name)
        expect(preview).to_have_text("Given so far: 60 of 60")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        form.get_by_role("button", name="Save the deal").tap()
        expect(page.locator(".messages")).to_contain_text(f"Deal {number} saved.")
        if number == TIED_AFTER:  # Ana and Ben share the lead at 50: the game goes on
            for name in ("Ana", "Ben"):
                expect(page.locator(f'.total-score[data-player="{name}"]')).to_have_text("50")
            expect(page.locator(".winner")).to_have_count(0)

    # The end: the winner, the totals as the scoring service computes them, no more form.
    result = escopette_game(PLAYERS, TARGET, [EscopetteDeal(stakes=s) for s in DEALS])
    assert (result.winner, result.ended_after) == ("Ana", len(DEALS))
    expect(page.locator(".winner")).to_have_text(
        f"Ana wins the game with {result.totals['Ana']} points."
    )
    for name in PLAYERS:
        expect(page.locator(f'.total-score[data-player="{name}"]')).to_have_text(
            str(result.totals[name])
        )
    rows = page.locator(".score-sheet table.scores tbody tr")
    expect(rows).to_have_count(len(DEALS))
    for index, scores in enumerate(result.scores):
        expect(rows.nth(index).locator("td .deal-score")).to_have_text(
            [str(scores[name]) for name in PLAYERS]
        )
    expect(page.get_by_role("button", name="Save the deal")).to_have_count(0)
    assert Deal.objects.count() == len(DEALS)

    # Usable at 390px: the document itself never scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # The rules, from the game's line under the totals.
    page.locator(".game-target").get_by_role("link", name="the rules").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("L'escopette: the rules")
