"""Signing in by e-mail in Chromium at phone size: with the code, then with the link."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from tests.e2e.conftest import new_phone_page

EMAIL = "nina@example.com"


def last_mail_text() -> str:
    return mail.outbox[-1].body


@pytest.mark.django_db(transaction=True)
def test_sign_in_with_the_code_then_with_the_link_on_another_device(
    live_server, page: Page, browser: Browser
) -> None:
    # The tab that asks types the code from the mail.
    page.goto(live_server.url + "/")
    page.locator(".site-header").get_by_role("link", name="Sign in").click()
    email_field = page.get_by_label("E-mail address")
    expect(email_field).to_have_attribute("autocomplete", "email")
    email_field.fill(EMAIL)
    page.get_by_role("button", name="Send me a code").click()
    expect(page).to_have_url(re.compile(r"/login/code/$"))
    expect(page.locator("main")).to_contain_text(EMAIL)
    code = re.search(r"\b(\d{6})\b", last_mail_text()).group(1)
    code_field = page.get_by_label("Code from the e-mail")
    expect(code_field).to_have_attribute("inputmode", "numeric")
    code_field.fill(code)
    page.get_by_role("button", name="Sign in").click()

    # A new account: asked for a display name, pre-filled from the address.
    expect(page).to_have_url(re.compile(r"/welcome/$"))
    name_field = page.get_by_label("Your name, as the other players see it")
    expect(name_field).to_have_value("Nina")
    name_field.fill("Nina R.")
    page.get_by_role("button", name="Save and continue").click()
    expect(page).to_have_url(live_server.url + "/")
    expect(page.locator(".site-header")).to_contain_text("Nina R.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # Signed out, the same tab asks again; the link opens on another device.
    page.get_by_role("button", name="Sign out").click()
    expect(page.locator(".site-header").get_by_role("link", name="Sign in")).to_be_visible()
    page.locator(".site-header").get_by_role("link", name="Sign in").click()
    page.get_by_label("E-mail address").fill(EMAIL)
    page.get_by_role("button", name="Send me a code").click()
    expect(page).to_have_url(re.compile(r"/login/code/$"))
    link = re.search(r"http://\S+/login/link/\S+", last_mail_text()).group(0)

    other = new_phone_page(browser)
    try:
        other.goto(link)
        expect(other.get_by_role("button", name="Continue")).to_be_visible()
        assert User.objects.get(email=EMAIL).last_login is not None  # from the code sign-in
        other.get_by_role("button", name="Continue").click()
        expect(other).to_have_url(live_server.url + "/")
        expect(other.locator(".site-header")).to_contain_text("Nina R.")
        expect(other.get_by_role("button", name="Sign out")).to_be_visible()
    finally:
        other.context.close()

    # The link is spent: the code of that same mail no longer works in the asking tab.
    code = re.search(r"\b(\d{6})\b", last_mail_text()).group(1)
    page.get_by_label("Code from the e-mail").fill(code)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".errorlist")).to_contain_text("no longer works")
