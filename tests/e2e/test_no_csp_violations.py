"""The Content-Security-Policy blocks nothing the app needs (the no-inline rule).

Chromium visits the main pages, signed out and signed in, and uses what runs scripts: the
counter's steppers (counter.js), the evening page's live preview (htmx) and a save. Any
"Refused to ..." console message or securitypolicyviolation event fails the test.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from scorekeeper import services
from scorekeeper.scoring.tarot import PassedDeal
from tests.e2e.signing_in import sign_in_by_code
from tests.factories import make_club, make_user, start_evening

LISTEN = """document.addEventListener("securitypolicyviolation", (event) => {
  (window.__violations = window.__violations || []).push(
    `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
});"""


def test_the_main_pages_raise_no_csp_violation(live_server, page: Page) -> None:
    owner = make_user("tina@example.com", "Tina")
    club, players = make_club(owner, players=["Ana", "Ben", "Chloé", "Dan"])
    evening, game = start_evening(club, players)
    services.deal_record(game=game, inputs=PassedDeal(seated=tuple(p.pk for p in players)))

    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Refused to" in m.text else None)
    page.add_init_script(LISTEN)
    violations: list[str] = []

    def collect() -> None:
        violations.extend(page.evaluate("window.__violations || []"))

    base = live_server.url
    assert page.goto(base + "/").headers["content-security-policy"]
    collect()

    # The counter: its steppers run from counter.js, its summary updates through htmx.
    page.goto(base + "/counter/")
    for _ in range(3):
        page.get_by_role("button", name="One more: Piles of 5").click()
    expect(page.locator("#id_fives")).to_have_value("3")
    expect(page.locator("#counter-summary")).not_to_contain_text("The attack has 0 points.")
    collect()

    sign_in_by_code(page, base, "tina@example.com", "Tina")
    collect()
    for path in (
        f"/clubs/{club.pk}/",
        f"/clubs/{club.pk}/seasons/",
        f"/clubs/{club.pk}/players/{players[0].pk}/",
        f"/evenings/{evening.pk}/deals/{game.deals.get().pk}/edit/",
        "/rules/escopette/",
    ):
        page.goto(base + path)
        expect(page.locator("main h1")).to_be_visible()
        collect()

    # The evening page: the live preview (htmx) updates as the deal is filled in, and saves.
    page.goto(base + f"/evenings/{evening.pk}/")
    form = page.locator(".deal-entry form.deal-form")
    form.get_by_label("Everyone passed").check()
    expect(form.locator(".preview")).to_contain_text("Everyone passed: 0 for all")
    form.get_by_role("button", name="Save the deal").tap()
    expect(page.locator(".messages")).to_contain_text("Deal 2 saved.")
    expect(page).to_have_url(re.compile(rf"/evenings/{evening.pk}/"))
    collect()

    assert refused == []
    assert violations == []
