"""A whole evening at the table, in Chromium at phone size (390×844), as a person does it.

Sign in with the e-mailed code, create a club, add 5 players, start an evening of 5-player
tarot (a called king), enter 10 deals by tapping the pills, correct one, delete another and
undo; the totals on screen must equal what the pure scoring service computes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.scoring.tarot import PassedDeal, TarotDeal, score_deal, totals
from tests.e2e.deal_taps import tap_bid, tap_partner
from tests.e2e.signing_in import sign_in_by_code

EMAIL = "tina@example.com"
CLUB = "Les Petits Bouts"
PLAYERS = ("Ana", "Ben", "Chloé", "Dan", "Eve")  # seat order; Chloé checks the accents

CONTRACTS = {
    "petite": "Petite",
    "garde": "Garde",
    "garde_sans": "Garde sans",
    "garde_contre": "Garde contre",
}
SIDES = {"attack": "Attack", "defense": "Defence"}
CHELEMS = {
    "announced": "Announced and made",
    "unannounced": "Made, not announced",
    "announced_failed": "Announced and failed",
    "defense": "Taken by the defence",
}
POIGNEES = {"simple": "Simple", "double": "Double", "triple": "Triple"}


@dataclass(frozen=True)
class Entry:
    """One deal as the table tells it; ``taker=None`` means everyone passed."""

    taker: str | None = None
    contract: str = ""
    partner: str = ""  # with 5 seated: the called player, or the taker when alone
    bouts: int = 0
    points: str = ""  # as typed
    points_for: str = "attack"
    petit_au_bout: str | None = None
    poignees: tuple[str, ...] = ()
    chelem: str | None = None

    def scores(self) -> dict[str, int]:
        """The scoring service's answer, with the names as player keys."""
        if self.taker is None:
            return score_deal(PassedDeal(seated=PLAYERS))
        points = Decimal(self.points.replace(",", "."))
        if self.points_for == "defense":
            points = 91 - points
        return score_deal(
            TarotDeal(
                seated=PLAYERS,
                taker=self.taker,
                contract=self.contract,
                bouts=self.bouts,
                points=points,
                partner=self.partner,
                petit_au_bout=self.petit_au_bout,
                poignees=self.poignees,
                chelem=self.chelem,
            )
        )

    @property
    def has_bonus(self) -> bool:
        return bool(self.petit_au_bout or self.poignees or self.chelem)


DEALS = [
    # A called partner and a simple poignée (rules.md, example 11).
    Entry("Ana", "garde", "Ben", 2, "45.5", poignees=("simple",)),
    # The taker alone (called his own king), petit au bout to the attack (example 12).
    Entry("Ben", "garde_contre", "Ben", 1, "47", petit_au_bout="attack"),
    Entry(),  # everyone passed
    Entry("Chloé", "petite", "Dan", 1, "51"),  # made by 0: corrected below
    Entry("Dan", "garde", "Eve", 3, "56", petit_au_bout="attack"),
    # Chelem announced and made, with a double poignée.
    Entry(
        "Eve",
        "garde_sans",
        "Ana",
        3,
        "91",
        petit_au_bout="attack",
        poignees=("double",),
        chelem="announced",
    ),
    # Failed, petit au bout to the defence, two poignées: deleted, then brought back.
    Entry(
        "Ana", "petite", "Chloé", 2, "38", petit_au_bout="defense", poignees=("simple", "double")
    ),
    # The defence's pile counted, with a comma: the attack has 40.5 against 41.
    Entry("Ben", "garde", "Dan", 2, "50,5", points_for="defense"),
    Entry("Chloé", "garde", "Eve", 1, "60", poignees=("triple",)),
    Entry("Dan", "petite", "Dan", 0, "58"),  # alone again
]
EDITED = 4  # becomes a failed garde
DELETED = 7


def tap_choice(scope: Locator, group: str, label: str) -> None:
    """Tap one pill of a group of radio buttons and see it selected."""
    choice = scope.get_by_role("group", name=group, exact=True).get_by_label(label, exact=True)
    choice.tap()
    expect(choice).to_be_checked()


def shown(score: int) -> str:
    return f"+{score}" if score > 0 else str(score)


def fill_deal(form: Locator, entry: Entry) -> None:
    """Fill in the deal form (new or correction) and check its preview."""
    if entry.taker is None:
        passed = form.get_by_label("Everyone passed")
        passed.tap()
        expect(passed).to_be_checked()
        expect(form.locator(".preview")).to_contain_text("Everyone passed: 0 for all")
        return
    tap_bid(form, entry.taker, CONTRACTS[entry.contract])
    tap_partner(form, entry.partner)
    tap_choice(form, "Bouts in the attack's tricks", str(entry.bouts))
    points = form.get_by_label("Points", exact=True)
    points.fill(entry.points)
    tap_choice(form, "Points counted for", SIDES[entry.points_for])
    bonuses = form.locator("details.bonuses")
    if entry.has_bonus and not bonuses.evaluate("details => details.open"):
        bonuses.get_by_text("Petit au bout, poignées, chelem").tap()
    if entry.petit_au_bout:
        tap_choice(bonuses, "Petit au bout", SIDES[entry.petit_au_bout])
    for kind, label in POIGNEES.items():
        count = entry.poignees.count(kind)
        if count:
            bonuses.get_by_role("group", name="Poignées shown").get_by_label(label).fill(str(count))
    if entry.chelem:
        tap_choice(bonuses, "Chelem", CHELEMS[entry.chelem])
    # The live preview shows the same scores as the scoring service, in seat order.
    scores = entry.scores()
    expect(form.locator(".preview-scores li")).to_have_text(
        [f"{name} {shown(scores[name])}" for name in PLAYERS]
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.both_databases
def test_an_evening_of_ten_deals_at_the_table(live_server, page: Page) -> None:
    sign_in_by_code(page, live_server.url, EMAIL, "Tina")

    # A club, from the home page.
    page.get_by_label("Name of the club").fill(CLUB)
    page.get_by_role("button", name="Create the club").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text(CLUB)

    # Five players, typed one after the other (the list refreshes in place).
    players = page.locator("#players")
    for name in PLAYERS:
        page.get_by_label("Name of the player").press_sequentially(name)
        players.get_by_role("button", name="Add", exact=True).tap()
        expect(players.locator(".row-main", has_text=name)).to_be_visible()
    expect(players.locator(".row-main")).to_have_count(len(PLAYERS))

    # The evening: the five players in seat order, 5-player tarot with a called king.
    page.get_by_role("link", name="Start an evening").tap()
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).select_option(label=name)
    five = page.get_by_label("5-player tarot (a called king)")
    five.tap()
    expect(five).to_be_checked()
    page.get_by_role("button", name="Start the evening").tap()
    expect(page).to_have_url(re.compile(r"/evenings/\d+/"))
    evening_url = re.sub(r"[?#].*$", "", page.url)

    # Ten deals through the form; each save reloads the page (hx-boost).
    for number, entry in enumerate(DEALS, start=1):
        entry_section = page.locator(".deal-entry")
        expect(entry_section.get_by_role("heading", level=2)).to_have_text(f"Deal {number}")
        form = entry_section.locator("form.deal-form")
        fill_deal(form, entry)
        form.get_by_role("button", name="Save the deal").tap()
        expect(page.locator(".messages")).to_contain_text(f"Deal {number} saved.")

    # A correction: deal 4 was a garde, and the attack had 48.
    deals = list(DEALS)
    deals[EDITED - 1] = replace(deals[EDITED - 1], contract="garde", points="48")
    page.get_by_role("link", name=f"Edit deal {EDITED}", exact=True).tap()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Correct deal {EDITED}")
    form = page.locator("form.deal-form")
    expect(form.get_by_label("Points", exact=True)).to_have_value("51")
    fill_deal(form, deals[EDITED - 1])
    form.get_by_role("button", name="Save the correction").tap()
    expect(page.locator(".messages")).to_contain_text(f"Deal {EDITED} changed.")

    # A deal deleted by mistake, and brought back with Undo.
    page.get_by_role("link", name=f"Edit deal {DELETED}", exact=True).tap()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Correct deal {DELETED}")
    page.get_by_role("button", name=f"Delete deal {DELETED}").tap()
    undo = page.locator("form.undo")
    expect(undo).to_contain_text(f"Deal {DELETED} deleted.")
    numbers = page.locator(".score-sheet table.scores tbody tr .deal-number")
    expect(numbers).to_have_text([str(n) for n in range(1, len(DEALS))])
    undo.get_by_role("button", name="Undo").tap()
    expect(page.locator(".messages")).to_contain_text(f"Deal {DELETED} is back.")
    expect(page.locator("form.undo")).to_have_count(0)

    # The sheet: deals 1 to 10, no gap, each row as the scoring service scores it.
    expect(page).to_have_url(re.compile(re.escape(evening_url)))
    expect(numbers).to_have_text([str(n) for n in range(1, len(DEALS) + 1)])
    per_deal = [entry.scores() for entry in deals]
    rows = page.locator(".score-sheet table.scores tbody tr")
    for index, scores in enumerate(per_deal):
        expect(rows.nth(index).locator("td .deal-score")).to_have_text(
            [str(scores[name]) for name in PLAYERS]
        )

    # The totals on screen equal the scoring service's.
    expected = totals(list(PLAYERS), per_deal)
    assert sum(expected.values()) == 0
    for name in PLAYERS:
        expect(page.locator(f'.total-score[data-player="{name}"]')).to_have_text(
            str(expected[name])
        )
    expect(page.locator(".score-sheet table.scores tfoot td")).to_have_text(
        [re.compile(rf"(^|: ){expected[name]}$") for name in PLAYERS]  # "★ leader: " marked
    )

    # Usable at 390px: the document itself never scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
