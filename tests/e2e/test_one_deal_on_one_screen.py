"""One deal on one screen, the whole sheet at a glance, and save to the next deal fast.

Driven by tapping and typing like a scorer at 390×844 and 320×640: every tap and key is
counted, and a question outside the screen (under the sticky strip, under the bar with Save,
or beyond the edge) costs a swipe. The figures asserted here are the ones the README's phone
section gives; the timing test prints its figures (a speed is measured, not asserted).
"""

from __future__ import annotations

import re
import statistics
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import axe_playwright_python
import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Locator, Page, expect

from scorekeeper import services
from scorekeeper.models import Deal
from scorekeeper.scoring.tarot import TarotDeal
from tests.e2e.deal_taps import bid_cell, partner_cell
from tests.e2e.test_table_on_a_phone import SIZES, phone, wait_until
from tests.factories import NAMES, make_club, start_evening

PLAYERS = NAMES[:5]
KEYBOARD = {390: 336, 320: 260}  # the numeric keyboard's height, as on a phone
AXE_SOURCE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
WATCH_CSP = """document.addEventListener("securitypolicyviolation", (event) => {
  (window.__violations = window.__violations || []).push(
    `${event.violatedDirective} ${event.sourceFile}:${event.lineNumber}`);
});"""
expect.set_options(timeout=15_000)
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table():
    club, players = make_club(players=PLAYERS)
    evening, game = start_evening(club, players)
    return club.memberships.get(role="owner").user, evening, game


class Scorer:
    """Taps and types on a phone, counting inputs (taps and keys) and swipes."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.inputs = 0
        self.swipes = 0
        self.refused: list[str] = []
        page.on("console", lambda m: self.refused.append(m.text) if "Refused" in m.text else None)

    def usable(self) -> tuple[float, float]:
        """The part of the screen a question can be tapped in: below the sticky strip, above
        the bar with Save."""
        return self.page.evaluate(
            """() => {
              const strip = document.querySelector('.deal-entry .totals-strip');
              const bar = document.querySelector('.deal-entry .entry-bar');
              const top = strip ? Math.max(0, strip.getBoundingClientRect().bottom) : 0;
              const b = bar ? bar.getBoundingClientRect().top : innerHeight;
              return [top, Math.min(b, innerHeight)];
            }"""
        )

    def in_reach(self, target: Locator, *, in_bar: bool = False) -> bool:
        box = target.bounding_box()
        if box is None:
            return False
        top, bottom = (0, self.page.viewport_size["height"]) if in_bar else self.usable()
        return box["y"] >= top - 1 and box["y"] + box["height"] <= bottom + 1

    def reach(self, target: Locator, *, in_bar: bool = False) -> None:
        if not self.in_reach(target, in_bar=in_bar):
            self.swipes += 1
            target.evaluate("node => node.scrollIntoView({block: 'center'})")
            assert self.in_reach(target, in_bar=in_bar)

    def tap(self, target: Locator, *, in_bar: bool = False) -> None:
        self.reach(target, in_bar=in_bar)
        box = target.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box  # a thumb's target
        target.tap()
        self.inputs += 1

    def choose(self, form: Locator, group: str, label: str) -> None:
        pill = form.get_by_role("group", name=group, exact=True).locator(
            "label.choice", has_text=label
        )
        self.tap(pill.first)
        expect(pill.first.locator("input")).to_be_checked()

    def tap_cell(self, cell: Locator) -> None:
        """A cell of the grid of the taker and contract (its input fills the label)."""
        self.tap(cell.locator("xpath=.."))
        expect(cell).to_be_checked()

    def type_points(self, form: Locator, points: str) -> None:
        field = form.get_by_label("Points", exact=True)
        if not self.page.evaluate(
            "document.activeElement && document.activeElement.name === 'deal-points'"
        ):
            self.tap(field)
        # The numeric keyboard opens: the screen is that much shorter; the phone keeps the
        # focused field in view by itself, and Save stays above the keyboard.
        size = self.page.viewport_size
        self.page.set_viewport_size({**size, "height": size["height"] - KEYBOARD[size["width"]]})
        field.evaluate("node => node.scrollIntoView({block: 'nearest'})")
        self.reach(field)
        self.reach(form.locator(".save-deal"), in_bar=True)
        field.press_sequentially(points)
        self.inputs += len(points)
        self.keyboard_height = KEYBOARD[size["width"]]

    def save(self, form: Locator) -> None:
        self.tap(form.locator(".save-deal"), in_bar=True)
        size = self.page.viewport_size
        self.page.set_viewport_size({**size, "height": size["height"] + self.keyboard_height})


def plain_deal(scorer: Scorer, number: int) -> tuple[int, int]:
    """The taker and contract (one tap), partner, bouts, points, Save: the inputs and swipes
    it took."""
    page = scorer.page
    before = (scorer.inputs, scorer.swipes)
    section = page.locator(".deal-entry")
    form = section.locator("form.deal-form")
    expect(section.get_by_role("heading", level=2)).to_have_text(f"Deal {number}")
    scorer.tap_cell(bid_cell(form, PLAYERS[number % 5], "Garde"))
    scorer.tap_cell(partner_cell(form, PLAYERS[(number + 2) % 5]))
    scorer.choose(form, "Bouts in the attack's tricks", "2")
    scorer.type_points(form, str(40 + number % 20))
    expect(form.locator(".preview-scores li")).to_have_count(len(PLAYERS))
    scorer.save(form)
    saved = page.locator(".deal-entry .saved-note")
    expect(saved).to_contain_text(f"Deal {number} saved.")
    assert scorer.in_reach(saved, in_bar=True)  # not hidden under the strip
    wait_until(page, "document.activeElement.closest('form.deal-form') !== null")
    return scorer.inputs - before[0], scorer.swipes - before[1]


@pytest.mark.parametrize("viewport", SIZES)
def test_a_plain_deal_fits_one_screen_in_six_inputs(
    live_server, browser: Browser, table, viewport
) -> None:
    user, evening, game = table
    page = phone(browser, live_server, user, viewport)
    page.add_init_script(WATCH_CSP)
    scorer = Scorer(page)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    # Arriving: the first question is in view.
    grid = page.locator("form.deal-form .bid-grid")
    assert scorer.in_reach(grid.locator("label.bid-cell").first)
    figures = [plain_deal(scorer, number) for number in range(1, 9)]
    inputs = [n for n, _swipes in figures]
    swipes = [s for _inputs, s in figures]
    print(f"\n{viewport['width']}x{viewport['height']}: inputs {inputs}, swipes {swipes}")
    assert statistics.median(inputs) <= 6
    assert max(swipes) <= (0 if viewport["width"] == 390 else 1)
    assert game.deals.count() == 8
    # The sheet: every column at once, a deal a line of 48 px or less, the leader marked.
    wrap = page.locator(".sheet-wrap")
    assert wrap.evaluate("node => node.scrollWidth <= node.clientWidth")
    box = wrap.bounding_box()
    for name in page.locator(".sheet thead th.player-col").all():
        cell = name.bounding_box()
        assert box["x"] <= cell["x"] and cell["x"] + cell["width"] <= box["x"] + box["width"] + 1
    heights = page.locator(".sheet tbody tr").evaluate_all(
        "rows => rows.map(r => r.getBoundingClientRect().height)"
    )
    assert len(heights) == 8 and max(heights) <= 48, heights
    expect(page.locator(".sheet tfoot td.leader")).not_to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert scorer.refused == [] and page.evaluate("window.__violations || []") == []
    page.context.close()


def test_six_short_names_fit_at_390(live_server, browser: Browser) -> None:
    club, players = make_club(players=NAMES[:6])
    evening, game = start_evening(club, players)
    seated = tuple(p.pk for p in players[1:])
    for number in range(3):
        services.deal_record(
            game=game,
            inputs=TarotDeal(
                seated=seated,
                taker=seated[number],
                contract="garde",
                bouts=2,
                points=Decimal(50),
                partner=seated[number + 1],
            ),
        )
    page = phone(browser, live_server, club.memberships.get().user, SIZES[0].values[0])
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    wrap = page.locator(".sheet-wrap")
    assert wrap.evaluate("node => node.scrollWidth <= node.clientWidth")
    expect(page.locator(".sheet thead th.player-col")).to_have_count(6)
    page.context.close()


def test_back_from_the_counter_then_three_saves_and_a_reload_keep_every_deal(
    live_server, browser: Browser, table
) -> None:
    user, evening, game = table
    page = phone(browser, live_server, user, SIZES[0].values[0])
    scorer = Scorer(page)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    form = page.locator("form.deal-form")
    scorer.tap_cell(bid_cell(form, "Ben", "Garde"))
    scorer.tap_cell(partner_cell(form, "Dan"))
    # Counting a typical pile by pairs: a tap per kind of pile, the piles of 1 typed, the
    # last card, the bouts, and back: about ten inputs.
    before = scorer.inputs
    scorer.tap(form.get_by_role("button", name="Count the pile"), in_bar=True)
    expect(page).to_have_url(re.compile(r"/counter/\?"))
    for name, count in (
        ("Piles of 5", "5"),
        ("Piles of 4", "2"),
        ("Piles of 3", "2"),
        ("Piles of 2", "1"),
    ):
        picks = page.get_by_role("group", name=name, exact=True)
        scorer.tap(picks.get_by_role("button", name=count, exact=True), in_bar=True)
    scorer.tap(page.locator("#id_ones"), in_bar=True)
    page.locator("#id_ones").press_sequentially("6")
    scorer.inputs += 1
    leftover = page.get_by_role("group", name="A single card left over", exact=True)
    scorer.tap(leftover.get_by_role("button", name="A low card"), in_bar=True)
    scorer.tap(page.locator('label.choice:has(input[name="attack_bouts"][value="2"])'), in_bar=True)
    expect(page.locator("#counter-summary")).to_contain_text("The attack has 47.5 points.")
    scorer.tap(
        page.locator("#counter-summary").get_by_role("link", name="Use this result"), in_bar=True
    )
    counted = scorer.inputs - before
    print(f"\ncounting the pile by pairs: {counted} inputs")
    assert counted <= 10
    # The evening's own address: no key, no answers in it.
    expect(page).to_have_url(re.compile(rf"/evenings/{evening.pk}/(#game-\d+)?$"))
    form = page.locator("form.deal-form")
    # The count's preview is there at once.
    expect(form.locator(".preview-scores li")).to_have_count(len(PLAYERS))
    form.locator(".save-deal").tap()
    expect(page.locator(".saved-note")).to_contain_text("Deal 1 saved.")
    for number in (2, 3):
        plain_deal(scorer, number)
    page.reload()
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 4")
    plain_deal(scorer, 4)
    assert list(game.deals.order_by("number").values_list("number", "taker__name")) == [
        (1, "Ben"),
        (2, "Chloé"),
        (3, "Dan"),
        (4, "Eve"),
    ]
    expect(page.locator(".sheet tbody tr")).to_have_count(4)
    page.context.close()


def test_after_a_save_axe_finds_nothing_serious_and_focus_stays_in_view(
    live_server, browser: Browser, table
) -> None:
    user, evening, _game = table
    page = phone(browser, live_server, user, SIZES[0].values[0])
    scorer = Scorer(page)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    plain_deal(scorer, 1)
    plain_deal(scorer, 2)
    # The announcement comes from a live region no answer replaces.
    expect(page.locator("#entry-status")).to_contain_text("Deal 2 saved.")
    page.evaluate(AXE_SOURCE)
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    serious = [v["id"] for v in results["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == []
    # Keyboard focus never ends up under the sticky strip or the bar (WCAG 2.4.11).
    hidden = 0
    for _ in range(60):
        page.keyboard.press("Shift+Tab")
        hidden += page.evaluate(
            """() => {
              const el = document.activeElement;
              const section = el && el.closest('section.deal-entry');
              if (!section || el.closest('.totals-strip, .entry-bar')) return 0;
              const r = el.getBoundingClientRect();
              const strip = section.querySelector('.totals-strip').getBoundingClientRect();
              const bar = section.querySelector('.entry-bar').getBoundingClientRect();
              const stuck = bar.bottom >= innerHeight - 1;
              return (r.bottom <= strip.bottom + 1 && r.top < strip.bottom) ||
                     (stuck && r.top >= bar.top - 1) ? 1 : 0;
            }"""
        )
    assert hidden == 0
    page.context.close()


def test_save_to_the_next_deal_on_a_throttled_phone(live_server, browser: Browser) -> None:
    """4× CPU slowdown, a slow 4G link (1.6 Mbps, 150 ms), an evening of 40 deals."""
    club, players = make_club(players=PLAYERS)
    evening, game = start_evening(club, players)
    seated = tuple(p.pk for p in players)
    for number in range(40):
        services.deal_record(
            game=game,
            inputs=TarotDeal(
                seated=seated,
                taker=seated[number % 5],
                contract="garde",
                bouts=2,
                points=Decimal(41 + number % 15),
                partner=seated[(number + 2) % 5],
            ),
        )
    # An evening under way: those deals were saved a while ago.
    Deal.objects.filter(game=game).update(updated_at=timezone.now() - timedelta(minutes=30))
    page = phone(browser, live_server, club.memberships.get().user, SIZES[0].values[0])
    page.add_init_script(
        WATCH_CSP
        + """
        window.__long = [];
        new PerformanceObserver((list) => list.getEntries().forEach(
          (e) => window.__long.push([e.startTime, e.duration]))).observe({type: 'longtask'});
        document.addEventListener('click', (e) => {
          if (e.target.closest && e.target.closest('.save-deal')) window.__t0 = performance.now();
        }, true);
        document.addEventListener('htmx:afterSettle', () => {
          const el = document.activeElement;
          if (window.__t0 && el && el.closest('form.deal-form')) {
            (window.__saves = window.__saves || []).push([window.__t0, performance.now()]);
            window.__t0 = 0;
          }
        });"""
    )
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": 150,
            "downloadThroughput": 1_600_000 / 8,
            "uploadThroughput": 750_000 / 8,
        },
    )
    scorer = Scorer(page)
    for number in range(41, 48):
        plain_deal(scorer, number)
        wait_until(page, f"(window.__saves || []).length === {number - 40}")
    saves = page.evaluate("window.__saves")
    times = [end - start for start, end in saves]
    long_tasks = page.evaluate("window.__long")
    in_saves = [
        duration
        for start, duration in long_tasks
        if any(s <= start <= e for s, e in saves) and duration > 100
    ]
    saves_with_long_tasks = sum(
        any(s <= start <= e and duration > 100 for start, duration in long_tasks) for s, e in saves
    )
    # Where the time goes: before the request leaves, the network and server, the browser.
    parts = page.evaluate(
        """(saves) => saves.map(([t0, t1]) => {
          const r = performance.getEntriesByType('resource').find(
            (e) => e.name.endsWith('/deals/') && e.startTime >= t0 && e.startTime <= t1);
          return r ? [r.startTime - t0, r.responseEnd - r.startTime, t1 - r.responseEnd,
                      r.transferSize] : null;
        })""",
        saves,
    )
    print(
        "\nbefore the request, network and server, browser (ms), bytes:",
        [[round(x) for x in part] if part else None for part in parts],
    )
    # Tapping Save asks for no preview that would be thrown away.
    thrown = page.evaluate(
        """(saves) => performance.getEntriesByType('resource').filter((e) =>
             e.name.includes('/deals/preview/') && saves.some(([t0, t1]) =>
               e.startTime >= t0 - 50 && e.startTime <= t1)).length""",
        saves,
    )
    assert thrown == 0
    median = statistics.median(times)
    print(
        f"\nsave to the next deal ready: median {median:.0f} ms, each {[round(t) for t in times]},"
        f" long tasks over 100 ms: {in_saves}"
    )
    # The figures are printed, not asserted: a speed is measured, never a test's pass mark
    # (two shared cores slow the browser as much as the code does). The README gives them.
    print(f"saves with a long task over 100 ms: {saves_with_long_tasks} of {len(saves)}")
    assert len(times) == 7
    assert Deal.objects.filter(game=game).count() == 47
    assert page.evaluate("window.__violations || []") == []
    page.context.close()


def test_a_swapped_element_styled_by_a_script_raises_no_csp_refusal(
    live_server, browser: Browser, table
) -> None:
    """htmx's settle step copied an old element's style attribute onto its new copy with
    setAttribute, which the Content-Security-Policy refuses: the long runs' "Applying inline
    style violates style-src 'self'". Any script (or the browser) styling a swapped element
    through the CSSOM made the next save log it."""
    user, evening, _game = table
    page = phone(browser, live_server, user, SIZES[0].values[0])
    page.add_init_script(WATCH_CSP)
    scorer = Scorer(page)
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    for number in (1, 2, 3):
        # As a browser extension, an autofill or a scroll library may do.
        page.evaluate("document.querySelector('.deal-entry').style.outlineWidth = '0px'")
        page.evaluate("document.getElementById('live-totals').style.outlineWidth = '0px'")
        plain_deal(scorer, number)
    assert scorer.refused == []
    assert page.evaluate("window.__violations || []") == []
    page.context.close()
