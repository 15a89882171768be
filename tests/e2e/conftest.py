"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# beside it are safe because nothing else touches the database at the same time.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, Playwright, sync_playwright

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-gpu",
    "--no-sandbox",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.path).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Playwright]:
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    browser = playwright_instance.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
    )
    yield browser
    browser.close()


def new_phone_page(browser: Browser, *, locale: str = "en-GB", dark: bool = False) -> Page:
    """A fresh browser context the size of a phone (390×844)."""
    context = browser.new_context(
        viewport=PHONE,
        locale=locale,
        color_scheme="dark" if dark else "light",
        has_touch=True,
    )
    context.set_default_timeout(10_000)
    return context.new_page()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    page = new_phone_page(browser)
    yield page
    page.context.close()
