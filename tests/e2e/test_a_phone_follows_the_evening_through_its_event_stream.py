"""A phone follows the evening through its event stream (live.js, evening_events.py).

Under an ASGI server (uvicorn, here in a thread of the test process, on the test database)
the evening page and the shared read-only page hold one stream open: while nothing changes
they ask the live URL nothing; a deal saved on another phone reaches them after one live
answer. A hidden page lets its stream go and, shown again, catches up through a new one; a
stream down for long says "lost" and recovers by itself.
Under WSGI (pytest-django's live server) the stream is answered 204 and the page polls as
before.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from django.db import connections
from playwright.sync_api import Browser, Page, Request, Response, expect

from scorekeeper.models import new_share_token
from scorekeeper.screens.table.evening_events import WATCH
from tests.e2e.signing_in import signed_in_phone
from tests.e2e.test_table_on_a_phone import PLAYERS, SIZES, fill_garde, phone
from tests.factories import make_club, start_evening

expect.set_options(timeout=15_000)
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

PHONE = SIZES[0].values[0]
QUIET = 5  # seconds a phone is watched while nothing changes


@pytest.fixture
def table():
    club, players = make_club(players=PLAYERS)
    evening, game = start_evening(club, players)
    evening.share_token = new_share_token()
    evening.save(update_fields=["share_token"])
    return club.memberships.get(role="owner").user, evening, game


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def asgi_server(transactional_db, settings) -> Iterator[str]:
    """The app under uvicorn, as the events process serves it, on the test database."""
    from scorekeeper.asgi import application

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
    port = free_port()
    config = uvicorn.Config(
        application,
        host="127.0.0.1",
        port=port,
        lifespan="off",
        log_level="warning",
        timeout_graceful_shutdown=2,  # a stream a test left open does not hold the teardown
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    # The watcher's thread keeps its database connection after the last stream: closed here,
    # or PostgreSQL refuses to drop the test database at the end of the run.
    WATCH.thread.submit(connections.close_all).result(timeout=10)


class Watched:
    """What a page asks: its live questions and the answers to its event stream."""

    def __init__(self, page: Page) -> None:
        self.live: list[str] = []
        self.streams: list[Response] = []
        page.on("request", self.asked)
        page.on("response", self.answered)

    def asked(self, request: Request) -> None:
        if "/live/" in request.url:
            self.live.append(request.url)

    def answered(self, response: Response) -> None:
        if response.url.endswith("/events/"):
            self.streams.append(response)


def streaming(page: Page, watched: Watched, seconds: float = 10) -> None:
    """Wait until the page's stream is open (its answer's headers are in). Playwright tells
    of requests while the test waits through it, not in a time.sleep."""
    deadline = time.monotonic() + seconds
    while not any(stream.status == 200 for stream in watched.streams):
        assert time.monotonic() < deadline, f"no stream open after {seconds} s"
        page.wait_for_timeout(50)
    stream = next(stream for stream in watched.streams if stream.status == 200)
    assert stream.headers["content-type"].startswith("text/event-stream")


def save_a_deal(page: Page, number: int) -> None:
    form = page.locator("form.deal-form")
    fill_garde(form, "Ana", "Chloé", "50")
    form.get_by_role("button", name="Save the deal").tap()
    expect(page.locator(".deal-entry .messages")).to_contain_text(f"Deal {number} saved.")


def test_a_second_phone_asks_nothing_until_a_deal_is_saved_then_once(
    asgi_server: str, browser: Browser, table
) -> None:
    user, evening, _game = table
    first = signed_in_phone(browser, asgi_server, user, PHONE, "en-GB").new_page()
    second = signed_in_phone(browser, asgi_server, user, PHONE, "en-GB").new_page()
    watched = Watched(second)
    first.goto(f"{asgi_server}/evenings/{evening.pk}/")
    second.goto(f"{asgi_server}/evenings/{evening.pk}/")
    streaming(second, watched)

    # Nothing changes: no question to the live URL (the polls asked every 4 s).
    second.wait_for_timeout(QUIET * 1000)
    assert watched.live == []
    expect(second.locator("#live-status")).to_be_hidden()

    # The first phone saves a deal: the second shows it after one live answer.
    save_a_deal(first, 1)
    expect(second.locator(".sheet tbody tr")).to_have_count(1, timeout=5_000)
    expect(second.locator(".deal-entry h2")).to_have_text("Deal 2")
    second.wait_for_timeout(1_000)  # no second question follows
    assert len(watched.live) == 1
    assert f"/evenings/{evening.pk}/live/" in watched.live[0]
    first.context.close()
    second.context.close()


def test_the_shared_read_only_page_follows_the_same_way(
    asgi_server: str, browser: Browser, table
) -> None:
    user, evening, _game = table
    scorer = signed_in_phone(browser, asgi_server, user, PHONE, "en-GB").new_page()
    reader = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True).new_page()
    watched = Watched(reader)
    scorer.goto(f"{asgi_server}/evenings/{evening.pk}/")
    reader.goto(f"{asgi_server}/shared/{evening.share_token}/")
    expect(reader.locator("form.deal-form")).to_have_count(0)  # read-only
    streaming(reader, watched)
    assert watched.streams[0].url.endswith(f"/shared/{evening.share_token}/events/")

    reader.wait_for_timeout(QUIET * 1000)
    assert watched.live == []

    save_a_deal(scorer, 1)
    expect(reader.locator(".sheet tbody tr")).to_have_count(1, timeout=5_000)
    reader.wait_for_timeout(1_000)
    assert len(watched.live) == 1
    assert f"/shared/{evening.share_token}/live/" in watched.live[0]
    scorer.context.close()
    reader.context.close()


def set_hidden(page: Page, hidden: bool) -> None:
    """The tab hidden or shown, as a phone's pocket or another app does it."""
    page.evaluate(
        """(hidden) => {
             Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
             document.dispatchEvent(new Event('visibilitychange'));
           }""",
        hidden,
    )


def test_a_hidden_page_lets_its_stream_go_and_catches_up_when_shown_again(
    asgi_server: str, browser: Browser, table
) -> None:
    user, evening, _game = table
    scorer = signed_in_phone(browser, asgi_server, user, PHONE, "en-GB").new_page()
    pocket = signed_in_phone(browser, asgi_server, user, PHONE, "en-GB").new_page()
    watched = Watched(pocket)
    scorer.goto(f"{asgi_server}/evenings/{evening.pk}/")
    pocket.goto(f"{asgi_server}/evenings/{evening.pk}/")
    streaming(pocket, watched)
    set_hidden(pocket, True)
    save_a_deal(scorer, 1)
    pocket.wait_for_timeout(2_000)  # the watcher has told the streams still open
    assert watched.live == []
    expect(pocket.locator(".sheet tbody tr")).to_have_count(0)

    # Shown again: a new stream, whose first event says the page is behind.
    set_hidden(pocket, False)
    expect(pocket.locator(".sheet tbody tr")).to_have_count(1, timeout=5_000)
    assert [stream.status for stream in watched.streams] == [200, 200]
    pocket.wait_for_timeout(1_000)
    assert len(watched.live) == 1
    scorer.context.close()
    pocket.context.close()


def test_under_wsgi_the_stream_is_answered_204_and_the_page_polls(
    live_server, browser: Browser, table
) -> None:
    user, evening, _game = table
    page = phone(browser, live_server, user, PHONE)
    watched = Watched(page)
    with page.expect_request(lambda request: "/live/" in request.url, timeout=15_000):
        page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    assert [stream.status for stream in watched.streams] == [204]
    with page.expect_request(lambda request: "/live/" in request.url, timeout=15_000):
        pass  # and again, every few seconds
    page.context.close()


def test_a_stream_down_for_long_says_lost_and_recovers_by_itself(
    asgi_server: str, browser: Browser, table, settings
) -> None:
    settings.EVENT_STREAM_SECONDS = 2  # each stream ends soon; the browser opens the next
    user, evening, _game = table
    page = signed_in_phone(browser, asgi_server, user, PHONE, "en-GB").new_page()
    watched = Watched(page)
    page.goto(f"{asgi_server}/evenings/{evening.pk}/")
    streaming(page, watched)
    status = page.locator("#live-status")
    page.route("**/events/", lambda route: route.abort("connectionrefused"))
    # The stream ends at 2 s, the browser tries again 4 s later and fails: not lost yet (the
    # page says so 8 s after the stream went, longer than an ordinary reconnection).
    page.wait_for_timeout(6_000)
    expect(status).to_be_hidden()
    expect(status).to_contain_text("Live updates lost", timeout=10_000)
    expect(status).to_be_visible()
    assert watched.live == []  # the stream is coming back, polls wait for it
    page.unroute("**/events/")
    expect(status).to_be_hidden(timeout=10_000)
    assert watched.live == []  # back at the version the page shows: nothing to ask
    page.context.close()
