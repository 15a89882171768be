"""Every page at 320 and 390 px in French, English and Russian: never wider than the screen,
axe-core (through axe-playwright-python) finds no serious or critical violation, and the
Content-Security-Policy refuses nothing.

One browser context per visitor (signed in, signed out), reused across languages (the
language cookie) and widths (the viewport is resized), and axe injected once per page load
by an init script: the whole check stays a few seconds per language.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from urllib.parse import urlsplit

import axe_playwright_python
import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page

from scorekeeper import services
from scorekeeper.models import Season
from scorekeeper.scoring.tarot import PassedDeal
from tests.scorekeeper.season_factories import deal, make_world, passed, play_escopette, stakes

WIDTHS = ({"width": 320, "height": 640}, {"width": 390, "height": 844})
AXE_SOURCE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
SERIOUS = ("serious", "critical")
# Every refusal of the Content-Security-Policy on the page (an inline style or script, say).
CSP_WATCH = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""

pytestmark = pytest.mark.django_db(transaction=True)


def the_club() -> dict[str, object]:
    """A club with a two-game evening (tarot with bonuses, then L'escopette) and the rest."""
    world = make_world(("Ana", "Ben", "Chloé", "Dan", "Eve", "Maximilienne-Alexandra"))
    ana, ben, chloe, dan, eve, max_ = world.players.values()
    five = [ana, ben, chloe, dan, eve]
    evening = services.evening_start(
        club=world.club,
        players=five,
        first_dealer=ana,
        created_by=world.owner,
        date=dt.date(2025, 3, 14),
        place="Chez Ana",
    )
    game = evening.games.get()
    for inputs in [
        deal(five, ana, "garde", 2, 45.5, partner=ben, poignees=("simple",)),
        deal(five, chloe, "garde_contre", 1, 47, partner=chloe, petit_au_bout="attack"),
        passed(five),
        deal(five, eve, "garde_sans", 3, 91, partner=dan, chelem="announced"),
    ]:
        services.deal_record(game=game, inputs=inputs, created_by=world.owner)
    four = [ana, ben, max_, dan]
    play_escopette(
        world,
        evening.date,
        four,
        50,
        [stakes({ana: [1, 2, 3, 5], ben: [4, 6], max_: [7, 12, 20]})],
        evening=evening,
    )
    services.share_link_create(evening=evening)
    evening.refresh_from_db()
    escopette = play_escopette(
        world, dt.date(2025, 3, 21), four, 50, [stakes({ben: [1, 2, 3, 4, 5, 6, 7, 12, 20]})]
    )
    club = world.club.pk
    services.deal_delete(deal=game.deals.get(number=3), deleted_by=world.owner)
    join = services.join_link_create(club=world.club, created_by=world.owner)
    first_deal = game.deals.order_by("number").first()
    season = Season.objects.filter(club=world.club).first()
    tournament = services.tournament_create(
        club=world.club,
        created_by=world.owner,
        name="Coupe de printemps",
        rounds=2,
        deals_per_round=1,
        place="Chez Ana",
    )
    for player in five:
        services.tournament_register(tournament=tournament, player=player)
    services.tournament_register(tournament=tournament, guest_name="Zoé")
    services.tournament_withdraw(entrant=tournament.entrants.get(player__name="Zoé"))
    first_round = services.round_start(tournament=tournament, created_by=world.owner)
    table_game = first_round.tables.get().game
    seated = tuple(table_game.seats.values_list("player_id", flat=True))
    services.deal_record(game=table_game, inputs=PassedDeal(seated=seated))
    services.round_close(tournament_round=first_round, even_short=True)
    services.round_start(tournament=tournament, created_by=world.owner)
    signed_in = {
        "home": "/",
        "club": f"/clubs/{club}/",
        "evening": f"/evenings/{evening.pk}/",
        "escopette evening": f"/evenings/{escopette.evening_id}/",
        "deal edit": f"/evenings/{evening.pk}/deals/{first_deal.pk}/edit/",
        "new evening": f"/clubs/{club}/evenings/new/",
        "new game": f"/evenings/{evening.pk}/games/new/",
        "seats": f"/evenings/{evening.pk}/games/{game.pk}/seats/",
        "seasons": f"/clubs/{club}/seasons/",
        "season": f"/clubs/{club}/seasons/{season.pk}/",
        "player": f"/clubs/{club}/players/{ana.pk}/",
        "welcome": "/welcome/",
        "deleted deals": f"/evenings/{evening.pk}/deleted/",
        "paper deal": f"/evenings/{evening.pk}/games/{game.pk}/paper/",
        "import": f"/clubs/{club}/import/",
        "club restore": "/clubs/restore/",
        "ratings": f"/clubs/{club}/ratings/?season=all",
        "head to head": f"/clubs/{club}/head-to-head/?season=all",
        "records": f"/clubs/{club}/records/?season=all",
        "contracts": f"/clubs/{club}/contracts/?season=all",
        "tournaments": f"/clubs/{club}/tournaments/",
        "tournament": f"/tournaments/{tournament.pk}/",
        "tournament players": f"/tournaments/{tournament.pk}/players/",
        "table cards": f"/tournaments/{tournament.pk}/rounds/1/cards/",
        "where each player sits": f"/tournaments/{tournament.pk}/rounds/2/seats/",
    }
    public = {
        "counter by pairs": "/counter/",
        "counter card by card": "/counter/?mode=cards",
        "counter tapping": "/counter/?mode=tap",
        "counter with a result": "/counter/?mode=pairs&fives=5&fours=2&threes=2&twos=1&ones=6"
        "&attack_bouts=2&return=/&deal-taker=1",
        "shared": f"/shared/{evening.share_token}/",
        "rules": "/rules/escopette/",
        "login": "/login/",
        "home signed out": "/",
        "join link": f"/join/{join.token}/",
        "offline page": "/offline/",
        "tournament ranking": f"/ranking/{tournament.public_token}/",
    }
    return {"owner": world.owner, "signed_in": signed_in, "public": public}


def context_for(browser: Browser, live_server, user=None, state=None) -> BrowserContext:
    context = browser.new_context(viewport=WIDTHS[0], has_touch=True, storage_state=state)
    context.set_default_timeout(15_000)
    context.add_init_script(AXE_SOURCE)
    context.add_init_script(CSP_WATCH)
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
        )
    return context


def ask_for_a_code(browser: Browser, live_server, language: str) -> tuple[dict, str]:
    """A browser that asked for a code (its storage, for the code page) and the mail's link."""
    asking = browser.new_context(viewport=WIDTHS[0])
    asking.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page = asking.new_page()
    page.goto(live_server.url + "/login/")
    page.locator("input[type=email]").fill("newcomer@example.com")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/login/code/**")
    state = asking.storage_state()
    asking.close()
    link = re.search(r"https?://[^/\s]+(/login/link/\S+)", mail.outbox[-1].body).group(1)
    return state, link


def problems_on(page: Page, name: str, width: int) -> list[str]:
    found = []
    wide = page.evaluate("document.documentElement.scrollWidth")
    if wide > width:
        found.append(f"{name} @{width}: the document is {wide} px wide")
    for refused in page.evaluate("window.cspViolations"):
        found.append(f"{name} @{width}: the Content-Security-Policy refused {refused}")
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    for violation in results["violations"]:
        if violation["impact"] in SERIOUS:
            targets = [node["target"] for node in violation["nodes"][:3]]
            found.append(f"{name} @{width}: {violation['id']} ({violation['impact']}) {targets}")
    return found


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
def test_every_page_fits_the_screen_and_passes_axe(
    live_server, browser: Browser, language: str
) -> None:
    world = the_club()
    problems: list[str] = []
    asked, link = ask_for_a_code(browser, live_server, language)
    visitors = [
        (world["owner"], None, world["signed_in"]),
        (None, None, world["public"]),
        (None, asked, {"login code": "/login/code/"}),  # the browser that asked
        (None, None, {"login link": link}),  # another device: the Continue button
    ]
    for user, state, pages in visitors:
        context = context_for(browser, live_server, user, state)
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        page = context.new_page()
        for name, path in pages.items():
            page.set_viewport_size(WIDTHS[0])
            response = page.goto(live_server.url + path)
            assert response is not None and response.status == 200, (name, response.status)
            assert urlsplit(page.url).path == urlsplit(path).path, (name, page.url)
            assert page.locator("html").get_attribute("lang") == language
            # Loaded once, checked at each width: no script lays a page out by its width
            # (the stylesheets' media queries follow a resize), so a load per width would
            # only check the same document again, at half the speed.
            for viewport in WIDTHS:
                page.set_viewport_size(viewport)
                problems += problems_on(page, name, viewport["width"])
        context.close()
    assert problems == []
