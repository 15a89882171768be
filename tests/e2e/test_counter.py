"""The counter page in Chromium at phone size: three ways to count one pile, the round trip."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Browser, Page, expect

PHONE = {"width": 390, "height": 844}

# One pile of 33 cards, 47.5 points, holding the Petit and the 21.
PAIRS = {"fives": "5", "fours": "2", "threes": "2", "twos": "1", "ones": "6"}
CARDS = {"bouts": "2", "kings": "3", "queens": "2", "knights": "2", "jacks": "1", "lows": "23"}
TAPPED = (
    ["t1", "t21", "hk", "dk", "ck", "hq", "dq", "hn", "dn", "hj"]
    + [f"t{n}" for n in range(2, 21)]
    + ["h1", "h2", "h3", "h4"]
)

TAP_TARGETS = """() => {
  const selector = "main button, main input:not([type=hidden]), main select, main a.button,"
    + " main label.choice, main label.tile, footer button, footer select";
  return [...document.querySelectorAll(selector)]
    .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden")
    .map((el) => {
      const box = el.getBoundingClientRect();
      return {what: el.outerHTML.slice(0, 80), width: box.width, height: box.height};
    });
}"""


def assert_tap_targets_are_big_enough(page: Page) -> None:
    targets = page.evaluate(TAP_TARGETS)
    assert len(targets) > 10
    small = [t for t in targets if t["height"] < 44 or t["width"] < 44]
    assert small == [], small


def choose(page: Page, name: str, value: str) -> None:
    page.locator(f'label.choice:has(input[name="{name}"][value="{value}"])').click()


def test_one_pile_counted_by_pairs_card_by_card_and_by_tapping(live_server, page: Page) -> None:
    page.goto(live_server.url + "/counter/")
    summary = page.locator("#counter-summary")
    expect(summary).to_contain_text("The attack has 0 points.")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # By pairs, with the steppers for the piles of 5.
    for _ in range(5):
        page.get_by_role("button", name="One more: Piles of 5").click()
    expect(page.locator("#id_fives")).to_have_value("5")
    for name, value in PAIRS.items():
        if name != "fives":
            page.fill(f"#id_{name}", value)
    page.select_option("#id_leftover", "low")
    choose(page, "attack_bouts", "2")
    expect(summary).to_contain_text("The attack has 47.5 points.")
    expect(summary).to_contain_text("made by 7")
    assert_tap_targets_are_big_enough(page)

    # Card by card: only that section shows, and it starts from nothing.
    choose(page, "mode", "cards")
    expect(page.locator("#id_fives")).to_be_hidden()
    expect(summary).to_contain_text("The attack has 0 points.")
    for name, value in CARDS.items():
        page.fill(f"#id_{name}", value)
    expect(summary).to_contain_text("The attack has 47.5 points.")
    assert_tap_targets_are_big_enough(page)

    # By tapping: the bouts are found from the cards.
    choose(page, "mode", "tap")
    expect(page.locator("fieldset.attack-bouts")).to_be_hidden()
    expect(summary).to_contain_text("The attack has 0 points.")
    tile = 'label.tile:has(input[value="{}"])'
    page.locator(tile.format("h5")).click()  # one too many,
    for value in TAPPED:
        page.locator(tile.format(value)).click()
        if value == "t5":
            page.locator(tile.format("h5")).click()  # taken out again
    expect(page.locator('input[value="h5"]')).not_to_be_checked()
    expect(summary).to_contain_text("The attack has 47.5 points.")
    expect(summary).to_contain_text("made by 7")
    result = page.locator("#counter-result")
    expect(result).to_contain_text("33 cards")
    expect(result).to_contain_text("(found from the pile)")
    assert_tap_targets_are_big_enough(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # The page's address keeps the count: a reload shows the same.
    page.reload()
    expect(page.locator("#counter-summary")).to_contain_text("The attack has 47.5 points.")


def test_a_check_shows_next_to_its_field(live_server, page: Page) -> None:
    page.goto(live_server.url + "/counter/?mode=cards")
    page.fill("#id_kings", "5")
    expect(page.locator("#id_kings-errors")).to_have_text("Too many: the deck holds only 4.")
    expect(page.locator("#counter-summary")).to_contain_text("Check the count")
    page.fill("#id_kings", "4")
    expect(page.locator("#id_kings-errors")).to_be_empty()
    expect(page.locator("#counter-summary")).to_contain_text("The attack has 18 points.")

    # By pairs, honours with no low card left: the page offers to count card by card.
    choose(page, "mode", "pairs")
    page.select_option("#id_leftover", "honours")
    suggestion = page.get_by_text("Count card by card", exact=True)
    expect(suggestion).to_be_visible()
    suggestion.click()
    expect(page.locator("#id_kings")).to_be_visible()
    expect(page.locator("#counter-summary")).to_contain_text("The attack has 18 points.")


def test_the_round_trip_from_a_deal_form_keeps_its_fields(live_server, page: Page) -> None:
    page.goto(
        live_server.url + "/counter/?return=/some/local/path/"
        "&deal-taker=3&deal-contract=garde&deal-poignee=simple"
    )
    expect(page.locator('input[name="contract"][value="garde"]')).to_be_checked()
    for name, value in PAIRS.items():
        page.fill(f"#id_{name}", value)
    choose(page, "attack_bouts", "2")
    expect(page.locator("#counter-summary")).to_contain_text("The attack has 47 points.")
    expect(page.locator("#counter-result")).to_contain_text("+186")
    page.locator("#counter-summary").get_by_role("link", name="Use this result").click()
    page.wait_for_url("**/some/local/path/**")
    parts = urlsplit(page.url)
    assert parts.path == "/some/local/path/"
    assert parse_qs(parts.query) == {
        "deal-taker": ["3"],
        "deal-contract": ["garde"],
        "deal-poignee": ["simple"],
        "deal-points": ["47"],
        "deal-points_for": ["attack"],
        "deal-bouts": ["2"],
    }


def test_without_javascript_a_submit_gives_the_same_page(live_server, browser: Browser) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-GB", java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/counter/?return=/back/&deal-taker=1")
        for name, value in PAIRS.items():
            page.fill(f"#id_{name}", value)
        page.select_option("#id_leftover", "low")
        choose(page, "side", "defense")
        choose(page, "attack_bouts", "1")
        page.get_by_role("button", name="Count", exact=True).click()
        page.wait_for_url("**/counter/?**")
        expect(page.locator("#counter-summary")).to_contain_text("The attack has 43.5 points.")
        expect(page.locator("#counter-summary")).to_contain_text("fails by 8")
        assert_tap_targets_are_big_enough(page)
        link = page.locator("#counter-result").get_by_role("link", name="Use this result")
        href = link.get_attribute("href") or ""
        assert parse_qs(urlsplit(href).query)["deal-taker"] == ["1"]
        assert parse_qs(urlsplit(href).query)["deal-points"] == ["43.5"]
    finally:
        context.close()
