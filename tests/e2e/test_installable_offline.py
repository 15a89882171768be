"""The installable app in Chromium at phone size (390×844): manifest and icons, the service
worker, reading and entering deals with the network cut, sharing by QR code, joining a club.

The service worker runs for real (``service_workers="allow"``); ``context.set_offline(True)``
cuts the network for the page and for the worker alike.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from decimal import Decimal

import pytest
import zxingcpp
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Playwright, expect

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import Deal, DealScore, Membership
from scorekeeper.scoring.tarot import TarotDeal, score_deal
from scorekeeper.screens.table.deal_forms import TarotDealForm
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.e2e.deal_taps import tap_bid
from tests.factories import make_club, make_user, start_evening

PLAYERS = ("Ana", "Ben", "Chloé", "Dan")
ONLINE_DEAL = ("Chloé", "Petite", "petite", 1, "52")  # saved before the network goes
# (taker, contract label, contract, bouts, points typed): three deals entered in the cellar.
OFFLINE_DEALS = [
    ("Ana", "Garde", "garde", 2, "45.5"),
    ("Ben", "Petite", "petite", 1, "40"),
    ("Dan", "Garde sans", "garde_sans", 3, "38"),
]


def phone(
    browser: Browser, live_server, user: User | None = None, **options: object
) -> BrowserContext:
    """A phone-sized context with service workers on, signed in as ``user`` if given."""
    context = browser.new_context(
        viewport=PHONE, locale="en-GB", has_touch=True, service_workers="allow", **options
    )
    context.set_default_timeout(10_000)
    if user is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
        )
    return context


@pytest.fixture
def table(db):
    owner = make_user("tina@example.com", "Tina")
    club, players = make_club(owner, players=PLAYERS)
    evening, game = start_evening(club, players)
    return owner, club, evening, game


@pytest.fixture
def context(browser: Browser, live_server, table) -> Iterator[BrowserContext]:
    context = phone(browser, live_server, table[0])
    yield context
    context.close()


def wait_for_worker(page: Page) -> None:
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")


def open_controlled(context: BrowserContext, url: str) -> Page:
    """Open ``url`` once for the worker to install, then again under its control."""
    page = context.new_page()
    page.goto(url)
    wait_for_worker(page)
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    return page


def tap_choice(scope: Locator, group: str, label: str) -> None:
    choice = scope.get_by_role("group", name=group, exact=True).get_by_label(label, exact=True)
    choice.tap()
    expect(choice).to_be_checked()


def enter_deal(page: Page, taker: str, contract: str, bouts: int, points: str) -> None:
    form = page.locator("form.deal-form")
    tap_bid(form, taker, contract)
    tap_choice(form, "Bouts in the attack's tricks", str(bouts))
    form.get_by_label("Points", exact=True).fill(points)
    form.get_by_role("button", name="Save the deal").tap()


@pytest.mark.django_db(transaction=True)
def test_chromium_finds_the_app_installable_with_its_icons(
    live_server, playwright_instance: Playwright, tmp_path, table
) -> None:
    # A profile on disk: Chromium never offers to install from an incognito context.
    context = playwright_instance.chromium.launch_persistent_context(
        tmp_path,
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        viewport=PHONE,
        locale="en-GB",
        has_touch=True,
        service_workers="allow",
    )
    page = context.new_page()
    page.goto(live_server.url + "/")
    wait_for_worker(page)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == []
    assert manifest["url"].endswith("/manifest.webmanifest?lang=en")
    parsed = manifest.get("manifest")
    if parsed:  # newer Chromium hands the parsed manifest too ("kStandalone")
        assert parsed["display"].lower().endswith("standalone")
        assert len(parsed["icons"]) == 4
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    # Every icon the manifest lists loads, at the size it claims.
    icons = page.evaluate(
        """async () => {
          const link = document.querySelector('link[rel=manifest]');
          const manifest = await (await fetch(link.href)).json();
          return Promise.all(manifest.icons.map((icon) => new Promise((resolve) => {
            const image = new Image();
            image.onload = () => resolve([icon.sizes, icon.purpose, image.naturalWidth]);
            image.onerror = () => resolve([icon.sizes, icon.purpose, 0]);
            image.src = icon.src;
          })));
        }"""
    )
    assert ["192x192", "any", 192] in icons
    assert ["512x512", "any", 512] in icons
    assert ["512x512", "maskable", 512] in icons
    assert all(width > 0 for _sizes, _purpose, width in icons)
    # The favicon the browser asks for by itself is there too.
    assert page.request.get(live_server.url + "/favicon.ico").ok
    context.close()


@pytest.mark.django_db(transaction=True)
def test_an_evening_seen_once_opens_offline_from_its_last_copy(
    live_server, context: BrowserContext, table
) -> None:
    _owner, club, evening, _game = table
    page = open_controlled(context, live_server.url + reverse("evening", args=[evening.pk]))
    expect(page.locator(".offline-banner")).to_have_count(0)

    context.set_offline(True)
    page.reload()
    expect(page.locator(".offline-banner")).to_have_text(re.compile(r"^Offline — as of \d\d:\d\d$"))
    expect(page.get_by_role("heading", level=2, name="Deal 1")).to_be_visible()
    # Its styles came from the worker's cache: the page looks as it did.
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(247, 245, 240)"
    # A page never opened on this phone: the offline page, in the reader's language.
    page.goto(live_server.url + reverse("seasons", args=[club.pk]))
    expect(page.get_by_role("heading", level=1)).to_have_text("No network")

    context.set_offline(False)
    page.goto(live_server.url + reverse("evening", args=[evening.pk]))
    expect(page.locator(".offline-banner")).to_have_count(0)

    # Signing out forgets the kept pages: the next person on this phone does not see them.
    page.get_by_role("button", name="Sign out").tap()
    expect(page.get_by_role("link", name="Sign in", exact=True)).to_be_visible()
    context.set_offline(True)
    page.goto(live_server.url + reverse("evening", args=[evening.pk]))
    expect(page.get_by_role("heading", level=1)).to_have_text("No network")


@pytest.mark.django_db(transaction=True)
def test_three_deals_entered_offline_wait_survive_a_reload_and_are_stored_once_in_order(
    live_server, context: BrowserContext, table
) -> None:
    _owner, _club, evening, game = table
    evening_url = live_server.url + reverse("evening", args=[evening.pk])
    page = open_controlled(context, evening_url)
    _taker, label, _contract, bouts, points = ONLINE_DEAL
    enter_deal(page, _taker, label, bouts, points)
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 2")

    context.set_offline(True)
    expect(page.locator(".deal-form .preview")).to_have_text(
        "No network: the score of this deal will be computed when it is sent."
    )
    for number, (taker, label, _contract, bouts, points) in enumerate(OFFLINE_DEALS, start=2):
        expect(page.locator(".deal-entry h2")).to_have_text(f"Deal {number}")
        enter_deal(page, taker, label, bouts, points)
        expect(page.locator("#deal-queue li")).to_have_count(number - 1)
    queue = page.locator("#deal-queue li")
    expect(queue).to_have_text([re.compile(rf"^Deal {n}\b.*waiting to be sent") for n in (2, 3, 4)])
    expect(page.locator("#deal-queue-count")).to_have_text("Waiting to be sent: 3")
    # In the score sheet too, under the deal the server has.
    expect(page.locator("table.scores tbody tr")).to_have_count(4)
    expect(page.locator("tr.queued-row")).to_have_text(
        [re.compile(rf"^{n}\D.*waiting to be sent$") for n in (2, 3, 4)]
    )
    expect(page.locator("#deal-queue")).to_contain_text("The totals are provisional")
    assert Deal.objects.count() == 1

    # Closing the tab and coming back, still without network: the queue is still there.
    page.close()
    page = context.new_page()
    page.goto(evening_url)
    expect(page.locator(".offline-banner")).to_be_visible()
    expect(page.locator("#deal-queue li")).to_have_count(3)
    # The form follows on from the deals waiting: deal 5, dealt by Ana again (4 players).
    expect(page.locator(".deal-entry h2")).to_have_text("Deal 5")
    expect(page.locator("details.seating summary")).to_contain_text("Dealer: Ana")
    assert Deal.objects.count() == 1

    # The network comes back: each deal is stored once, in the order entered.
    context.set_offline(False)
    expect(page.locator("#deal-queue")).to_have_count(0, timeout=15_000)
    expect(page.locator("#deal-queue-count")).to_have_count(0)
    deals = list(Deal.objects.filter(game=game).order_by("number").select_related("taker"))
    every_deal = [ONLINE_DEAL, *OFFLINE_DEALS]
    assert [(d.number, d.taker.name, d.contract) for d in deals] == [
        (n, taker, contract) for n, (taker, _l, contract, _b, _p) in enumerate(every_deal, 1)
    ]
    # The dealer turned round the table as the deals were entered offline.
    assert [d.dealer.name for d in deals] == ["Ana", "Ben", "Chloé", "Dan"]

    expected = dict.fromkeys(PLAYERS, 0)
    for taker, _label, contract, bouts, points in every_deal:
        scores = score_deal(
            TarotDeal(
                seated=PLAYERS, taker=taker, contract=contract, bouts=bouts, points=Decimal(points)
            )
        )
        for name, score in scores.items():
            expected[name] += score
    stored = {name: 0 for name in PLAYERS}
    for row in DealScore.objects.filter(deal__game=game).select_related("player"):
        stored[row.player.name] += row.score
    assert stored == expected
    page.reload()
    for name, total in expected.items():
        expect(page.locator(f'#live-totals .total-score[data-player="{name}"]')).to_have_text(
            str(total)
        )


@pytest.mark.django_db(transaction=True)
def test_a_refused_number_asks_the_question_instead_of_saving_a_copy(
    live_server, context: BrowserContext, table
) -> None:
    """The client side of the deal-number check: a 409 with X-Deal-Conflict gets the question."""
    _owner, _club, evening, game = table
    page = open_controlled(context, live_server.url + reverse("evening", args=[evening.pk]))
    context.set_offline(True)
    enter_deal(page, "Ana", "Garde", 2, "45.5")
    expect(page.locator("#deal-queue li")).to_have_count(1)

    posts = []

    def another_phone_took_it(route) -> None:
        posts.append(route.request.post_data)
        route.fulfill(status=409, headers={"X-Deal-Conflict": "1"}, body="<p>taken</p>")

    context.route(re.compile(r"/deals/$"), another_phone_took_it)  # page or worker
    context.set_offline(False)
    item = page.locator("#deal-queue li")
    expect(item).to_contain_text("Another phone saved deal 1 meanwhile.")
    expect(item.get_by_role("button", name="Another deal — save as 2")).to_be_visible()
    assert len(posts) == 1 and "deal-idempotency_key=" in posts[0]
    item.get_by_role("button", name="Same deal — discard mine").tap()
    expect(page.locator("#deal-queue")).to_have_count(0)
    assert Deal.objects.filter(game=game).count() == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    "number" not in TarotDealForm.base_fields,
    reason="needs the deal form's deal-number field and the 409 of the deal-number check",
)
def test_a_deal_entered_offline_whose_number_another_phone_took_gets_the_question(
    live_server, browser: Browser, context: BrowserContext, table
) -> None:
    owner, _club, evening, game = table
    url = live_server.url + reverse("evening", args=[evening.pk])
    page = open_controlled(context, url)
    context.set_offline(True)
    enter_deal(page, "Ana", "Garde", 2, "45.5")

    other = phone(browser, live_server, owner)
    other_page = other.new_page()
    other_page.goto(url)
    enter_deal(other_page, "Ben", "Petite", 1, "40")
    expect(other_page.locator(".deal-entry h2")).to_have_text("Deal 2")
    other.close()

    context.set_offline(False)
    item = page.locator("#deal-queue li")
    expect(item).to_contain_text("Another phone saved deal 1 meanwhile.")
    assert Deal.objects.filter(game=game).count() == 1
    item.get_by_role("button", name="Another deal — save as 2").tap()
    expect(page.locator("#deal-queue")).to_have_count(0, timeout=15_000)
    deals = Deal.objects.filter(game=game).order_by("number").select_related("taker")
    assert [(d.number, d.taker.name) for d in deals] == [(1, "Ben"), (2, "Ana")]


def decode_qr(page: Page, svg: Locator) -> list[str]:
    """What zxing-cpp reads in a screenshot of the QR code as the phone shows it."""
    png = base64.b64encode(svg.screenshot()).decode()
    width, height, gray = page.evaluate(
        """async (png) => {
          const image = new Image();
          image.src = 'data:image/png;base64,' + png;
          await image.decode();
          const canvas = document.createElement('canvas');
          canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
          const context = canvas.getContext('2d');
          context.drawImage(image, 0, 0);
          const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
          const gray = [];
          for (let i = 0; i < rgba.length; i += 4) {
            gray.push(Math.round((rgba[i] + rgba[i + 1] + rgba[i + 2]) / 3));
          }
          return [canvas.width, canvas.height, gray];
        }""",
        png,
    )
    image = memoryview(bytes(gray)).cast("B", (height, width))
    return [barcode.text for barcode in zxingcpp.read_barcodes(image)]


@pytest.mark.django_db(transaction=True)
def test_the_read_only_link_copies_and_shows_a_qr_code_that_decodes_to_it(
    live_server, context: BrowserContext, table
) -> None:
    _owner, _club, evening, _game = table
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    page.goto(live_server.url + reverse("evening", args=[evening.pk]))
    page.get_by_role("button", name="Make a read-only link").tap()
    expect(page.get_by_role("button", name="Revoke the link")).to_be_visible()
    evening.refresh_from_db()
    link = live_server.url + reverse("evening_shared", args=[evening.share_token])
    expect(page.get_by_label("Read-only link for people without an account")).to_have_value(link)

    page.get_by_role("button", name="Copy the link").tap()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == link

    # Made a moment ago: the QR code is open already, the link's section in view.
    expect(page.locator("#owner-tools details.qr-details")).to_have_attribute("open", "")
    svg = page.get_by_role("img", name="QR code of the read-only link")
    expect(svg).to_be_visible()
    box = svg.bounding_box()
    assert box["width"] >= 300  # large enough to read from across the table
    assert decode_qr(page, svg) == [link]


@pytest.mark.django_db(transaction=True)
def test_the_join_link_asks_after_sign_in_and_a_revoked_one_gives_404(
    live_server, browser: Browser, context: BrowserContext, table
) -> None:
    _owner, club, _evening, _game = table
    page = context.new_page()
    page.goto(live_server.url + reverse("club", args=[club.pk]))
    page.get_by_role("button", name="Make a join link").tap()
    join_link = page.get_by_label(re.compile("Whoever opens this link")).input_value()
    assert re.fullmatch(re.escape(live_server.url) + r"/join/[\w-]+/", join_link)
    qr = page.locator("details.qr-details")
    if qr.get_attribute("open") is None:  # opened by itself where the address names its section
        page.get_by_text("Show as a QR code").tap()
    assert decode_qr(page, page.get_by_role("img", name="QR code of the join link")) == [join_link]

    # Someone at the table opens it on their phone and signs in.
    newcomer = phone(browser, live_server)
    their_page = newcomer.new_page()
    their_page.goto(join_link)
    expect(their_page.get_by_role("heading", level=1)).to_have_text(f"Join {club.name}")
    their_page.get_by_role("link", name="Sign in to join").tap()
    their_page.get_by_label("E-mail address").fill("zoe@example.com")
    their_page.get_by_role("button", name="Send me a code").tap()
    expect(their_page).to_have_url(re.compile(r"/login/code/$"))
    code = re.search(r"^\s*(\d{6})\s*$", mail.outbox[-1].body, re.MULTILINE).group(1)
    their_page.get_by_label("Code from the e-mail").press_sequentially(code)
    their_page.get_by_role("button", name="Sign in").tap()
    their_page.get_by_label("Your name, as the other players see it").fill("Zoé")
    their_page.get_by_role("button", name="Save and continue").tap()
    # Back on the link's page, signed in: asked, not joined without a tap.
    their_page.get_by_role("button", name=f"Join {club.name}").tap()
    expect(their_page).to_have_url(live_server.url + reverse("club", args=[club.pk]))
    expect(their_page.get_by_role("heading", level=1)).to_have_text(club.name)
    assert Membership.objects.filter(
        club=club, user__email="zoe@example.com", role="member"
    ).exists()
    newcomer.close()

    page.get_by_role("button", name="Revoke the join link").tap()
    expect(page.get_by_role("button", name="Make a join link")).to_be_visible()
    assert page.request.get(join_link).status == 404


@pytest.mark.django_db(transaction=True)
def test_the_screen_stays_on_when_asked_and_the_choice_is_remembered(
    live_server, context: BrowserContext, table
) -> None:
    _owner, _club, evening, _game = table
    page = context.new_page()
    page.goto(live_server.url + reverse("evening", args=[evening.pk]))
    toggle = page.get_by_label("Keep the screen on")
    if not page.evaluate("'wakeLock' in navigator"):
        expect(toggle).to_be_hidden()  # the browser cannot: no toggle that does nothing
        return
    expect(toggle).not_to_be_checked()
    toggle.tap()
    expect(toggle).to_be_checked()
    page.reload()
    expect(page.get_by_label("Keep the screen on")).to_be_checked()


@pytest.mark.django_db(transaction=True)
def test_without_javascript_the_link_and_its_qr_code_are_there_and_no_dead_button(
    live_server, browser: Browser, table
) -> None:
    owner, _club, evening, _game = table
    services.share_link_create(evening=evening)
    context = phone(browser, live_server, owner, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + reverse("evening", args=[evening.pk]))
    expect(page.get_by_label("Read-only link for people without an account")).to_be_visible()
    expect(page.get_by_role("button", name="Copy the link")).to_be_hidden()
    expect(page.get_by_role("button", name="Share")).to_be_hidden()
    expect(page.get_by_label("Keep the screen on")).to_be_hidden()
    page.get_by_text("Show as a QR code").click()
    expect(page.get_by_role("img", name="QR code of the read-only link")).to_be_visible()
    context.close()
