"""Signing in through the real /login/ flow, as the browser tests do it."""

from __future__ import annotations

import re

from django.conf import settings
from django.core import mail
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect


def sign_in_by_code(page: Page, base_url: str, email: str, name: str) -> None:
    """Ask for a code, read it from the mail the test server sent, type it; name a new account."""
    page.goto(base_url + "/login/")
    page.get_by_label("E-mail address").fill(email)
    page.get_by_role("button", name="Send me a code").tap()
    expect(page).to_have_url(re.compile(r"/login/code/$"))
    code = re.search(r"^\s*(\d{6})\s*$", mail.outbox[-1].body, re.MULTILINE).group(1)
    page.get_by_label("Code from the e-mail").press_sequentially(code)
    page.get_by_role("button", name="Sign in").tap()
    expect(page).to_have_url(re.compile(re.escape(base_url) + r"/(welcome/)?$"))
    if page.url.endswith("/welcome/"):  # a new account: the display-name step
        page.get_by_label("Your name, as the other players see it").fill(name)
        page.get_by_role("button", name="Save and continue").tap()
    expect(page).to_have_url(base_url + "/")
    expect(page.locator(".site-header")).to_contain_text(name)


def signed_in_phone(
    browser: Browser, base_url: str, user: object, viewport: dict[str, int], language: str
) -> BrowserContext:
    """A fresh browser context the size of that phone, signed in as ``user`` (its session
    made by the test client), with the page's language chosen."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, locale=language, has_touch=True)
    context.set_default_timeout(10_000)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [
            {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base_url},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base_url},
        ]
    )
    return context
