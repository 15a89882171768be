"""A club with its own rules, in Chromium at phone size (390×844): the owner chooses them on
the rules page by tapping, an evening starts with them, and a deal with a misère and a
poignée is entered by tapping; the preview and the sheet say which rules, and the totals on
the sheet are what the pure scoring service computes under those rules."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.scoring.rules import HouseRules
from scorekeeper.scoring.tarot import TarotDeal, score_deal
from tests.e2e.deal_taps import tap_bid
from tests.e2e.signing_in import sign_in_by_code

PLAYERS = ("Ana", "Ben", "Chloé", "Dan")
RULES = HouseRules(multipliers="classic", poignees="20-40-60", misere=10)
LINE = "House rules: classic multipliers, poignées 20-40-60, misère 10"


def tap_choice(scope: Locator, group: str, label: str) -> None:
    choice = scope.get_by_role("group", name=group, exact=True).get_by_label(label, exact=True)
    choice.tap()
    expect(choice).to_be_checked()


def tap_rule(page: Page, section: str, label: str) -> None:
    rule = page.locator(f"#rule-{section}")
    choice = rule.get_by_label(label, exact=True)
    choice.tap()
    expect(choice).to_be_checked()


def shown(score: int) -> str:
    return f"+{score}" if score > 0 else str(score)


@pytest.mark.django_db(transaction=True)
def test_a_deal_with_a_misere_and_a_poignee_under_house_rules(live_server, page: Page) -> None:
    sign_in_by_code(page, live_server.url, "rose@example.com", "Rose")
    page.get_by_label("Name of the club").fill("La Misère")
    page.get_by_role("button", name="Create the club").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("La Misère")
    players = page.locator("#players")
    for name in PLAYERS:
        page.get_by_label("Name of the player").press_sequentially(name)
        players.get_by_role("button", name="Add", exact=True).tap()
        expect(players.locator(".row-main", has_text=name)).to_be_visible()

    # The rules page: every rule explained, the owner taps the club's choices.
    page.get_by_role("link", name="House rules").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("House rules")
    expect(page.locator(".rules-in-force")).to_have_text("FFT rules")
    tap_rule(page, "multipliers", "Classic: 1, 2, 3, 4")
    tap_rule(page, "poignees", "20, 40, 60")
    tap_rule(page, "misere", "10 points")
    page.get_by_role("button", name="Save the rules").tap()
    expect(page.locator(".messages")).to_contain_text("The club's rules are now")
    expect(page.locator(".rules-in-force")).to_have_text(LINE)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # An evening of four: it starts with the club's rules.
    page.get_by_role("link", name="La Misère").tap()
    page.get_by_role("link", name="Start an evening").tap()
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).select_option(label=name)
    page.get_by_role("button", name="Start the evening").tap()
    expect(page).to_have_url(re.compile(r"/evenings/\d+/"))

    # A garde contre by Ben made with 2 bouts and 45 points, a simple poignée, Chloé's misère.
    form = page.locator(".deal-entry form.deal-form")
    tap_bid(form, "Ben", "Garde contre")
    tap_choice(form, "Bouts in the attack's tricks", "2")
    form.get_by_label("Points", exact=True).fill("45")
    form.locator("details.bonuses").get_by_text("Petit au bout, poignées, chelem").tap()
    form.get_by_role("group", name="Poignées shown").get_by_label("Simple").fill("1")
    tap_choice(form, "Misère announced by", "Chloé")
    deal = TarotDeal(
        seated=PLAYERS,
        taker="Ben",
        contract="garde_contre",
        bouts=2,
        points=Decimal(45),
        poignees=("simple",),
        miseres=("Chloé",),
    )
    scores = score_deal(deal, RULES)
    assert scores != score_deal(replace(deal, miseres=()), RULES)  # the misère counts
    expect(form.locator(".rules-in-force")).to_have_text(LINE)  # beside the preview
    preview = form.locator(".preview")
    expect(preview.locator(".preview-scores li")).to_have_text(
        [f"{name} {shown(scores[name])}" for name in PLAYERS]
    )
    form.get_by_role("button", name="Save the deal").tap()
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved.")

    # The sheet says which rules, marks the misère, and its totals are the scoring service's.
    sheet = page.locator(".score-sheet")
    expect(sheet.locator(".rules-in-force")).to_have_text(LINE)
    expect(sheet.locator(".misere-mark")).to_have_text("Misère: Chloé")
    expect(sheet.locator("table.scores tfoot td")).to_have_text(
        [re.compile(rf"(^|: ){scores[name]}$") for name in PLAYERS]  # "★ leader: " marked
    )
    for name in PLAYERS:
        expect(page.locator(f'.total-score[data-player="{name}"]')).to_have_text(str(scores[name]))
    assert sum(scores.values()) == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
