from __future__ import annotations

from playwright.sync_api import Page, expect


def test_the_home_page_renders_in_chromium_at_phone_size(live_server, page: Page) -> None:
    page.goto(live_server.url + "/")
    expect(page.locator("h1")).to_contain_text("French Tarot")
    styles_loaded = page.evaluate(
        "getComputedStyle(document.querySelector('.site-header')).borderBottomStyle"
    )
    assert styles_loaded == "solid"
    assert page.evaluate("typeof htmx") == "object"
    page_width = page.evaluate("document.documentElement.scrollWidth")
    assert page_width <= 390
