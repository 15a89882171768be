"""The live polls' own process (``LivePolls``, ASGI): 304 for "nothing changed", 404 for
everything else, which nginx hands to Django. Called here as uvicorn calls it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Evening
from scorekeeper.scoring.tarot import PassedDeal
from scorekeeper.screens.table.live_shortcut import LivePolls
from tests.factories import followed_table, make_user

# The checks run in the poll process's own context, on a connection of their own: the test's
# rows must be committed for it to see them.
pytestmark = pytest.mark.django_db(transaction=True)
REQUEST_LOG = "scorekeeper.requests"


@pytest.fixture(autouse=True)
def _checks_may_block_the_loop(monkeypatch) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # as scorekeeper.asgi_polls


class Process:
    """The poll process's application, and the one thread its event loop runs in (as
    uvicorn's: Django's connection of the checks' context belongs to that thread; the
    browser tests' Playwright also keeps a loop running in the main thread)."""

    def __init__(self) -> None:
        self.application = LivePolls()
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="poll-loop")

    def run(self, coroutine: Callable[[], Awaitable[Any]]) -> Any:
        return self.thread.submit(lambda: asyncio.run(coroutine())).result()


@pytest.fixture
def polls() -> Iterator[Process]:
    """The poll process; its connection closed at the end (else the test database could
    not be dropped)."""
    process = Process()
    yield process
    in_poll_context(process, connections.close_all)
    process.thread.shutdown()


def in_poll_context(polls: Process, work: Callable[[], Any]) -> Any:
    """``work()`` where the poll's checks run: in the event loop, in their context."""

    async def run() -> Any:
        return polls.application.context.run(work)

    return polls.run(run)


@pytest.fixture
def table():
    return followed_table()


def let_in(member, evening: Evening) -> Client:
    """A phone of ``member`` whose poll went the full way once (as its page load does)."""
    client = Client()
    client.force_login(member)
    url = reverse("evening_live", args=[evening.pk])
    assert client.get(url, {"version": evening.version}).status_code == 304
    return client


def asgi_poll(
    polls: Process,
    client: Client | None,
    path: str,
    query: str,
    *,
    method: str = "GET",
    cookie_headers: int = 1,
) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """One request to the poll process's application, with the phone's cookies."""
    cookie = ""
    if client is not None:
        cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    headers = [(b"host", b"127.0.0.1")]
    if cookie and cookie_headers == 1:
        headers.append((b"cookie", cookie.encode()))
    elif cookie:  # split in several headers, as HTTP/2 may send them
        headers += [(b"cookie", part.encode()) for part in cookie.split("; ")]
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "root_path": "",
        "query_string": query.encode(),
        "headers": headers,
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    polls.run(lambda: polls.application(scope, receive, send))
    start, body = sent
    assert start["type"] == "http.response.start" and body["type"] == "http.response.body"
    return start["status"], start["headers"], body["body"]


def test_an_unchanged_evening_is_answered_304_from_one_query(polls, table, caplog) -> None:
    _club, _players, member, evening, _game = table
    client = let_in(member, evening)
    path = reverse("evening_live", args=[evening.pk])
    query = f"version={evening.version}"
    assert asgi_poll(polls, client, path, query)[0] == 304  # its connection opened

    def log_queries() -> None:
        connections["default"].force_debug_cursor = True
        connections["default"].queries_log.clear()

    in_poll_context(polls, log_queries)
    with caplog.at_level("INFO", REQUEST_LOG):
        status, headers, body = asgi_poll(polls, client, path, query)
    assert (status, body) == (304, b"")
    assert (b"cache-control", b"private, no-store") in headers
    queries = in_poll_context(polls, lambda: list(connections["default"].queries_log))
    assert len(queries) == 1 and "version" in queries[0]["sql"]
    assert in_poll_context(polls, lambda: connections["default"]) is not connection
    logged = [r for r in caplog.records if r.name == REQUEST_LOG]
    assert [(r.method, r.path, r.status) for r in logged] == [("GET", path, 304)]


def test_cookies_split_over_several_headers_are_read(polls, table) -> None:
    _club, _players, member, evening, _game = table
    client = let_in(member, evening)
    path = reverse("evening_live", args=[evening.pk])
    query = f"version={evening.version}"
    assert asgi_poll(polls, client, path, query, cookie_headers=2)[0] == 304


def test_anything_else_is_handed_to_django(polls, table) -> None:
    _club, players, member, evening, game = table
    client = let_in(member, evening)
    stranger = Client()
    stranger.force_login(make_user("zoe@example.com", "Zoé"))
    path = reverse("evening_live", args=[evening.pk])
    version = f"version={evening.version}"
    cases = [
        (client, path, "version=x", "GET"),  # an odd version
        (client, path, "", "GET"),  # none
        (client, path, version, "POST"),
        (client, reverse("evening", args=[evening.pk]), version, "GET"),  # not a poll
        (client, f"/evenings/{evening.pk}x/live/", version, "GET"),
        (stranger, path, version, "GET"),  # never let in
        (None, path, version, "GET"),  # no session
        (Client(), "/shared/no-such-link/live/", version, "GET"),
    ]
    for phone, address, query, method in cases:
        assert asgi_poll(polls, phone, address, query, method=method)[::2] == (404, b"")
    assert asgi_poll(polls, client, path, version)[0] == 304
    services.deal_record(game=game, inputs=PassedDeal(seated=tuple(p.pk for p in players)))
    assert asgi_poll(polls, client, path, version)[0] == 404  # a new version: Django sends it


def test_a_shared_link_let_in_is_answered_304(polls, table) -> None:
    _club, _players, _member, evening, _game = table
    token = services.share_link_create(evening=evening).share_token
    viewer = Client()
    live = reverse("evening_shared_live", args=[token])
    assert viewer.get(live, {"version": evening.version}).status_code == 304  # the full way
    assert asgi_poll(polls, viewer, live, f"version={evening.version}")[0] == 304
    assert asgi_poll(polls, viewer, live, f"version={evening.version - 1}")[0] == 404


def test_a_connection_an_error_left_unusable_is_closed_and_the_next_poll_opens_another(
    polls, table, monkeypatch
) -> None:
    """Django closes a connection an error left unusable after each request; the poll
    process has no Django request, so it does the same after each poll."""
    _club, _players, member, evening, _game = table
    client = let_in(member, evening)
    path = reverse("evening_live", args=[evening.pk])
    query = f"version={evening.version}"
    assert asgi_poll(polls, client, path, query)[0] == 304
    first = in_poll_context(polls, lambda: connections["default"].connection)
    assert first is not None  # kept open from one poll to the next
    assert asgi_poll(polls, client, path, query)[0] == 304
    assert in_poll_context(polls, lambda: connections["default"].connection) is first

    def break_it() -> None:  # the server closed it behind our back, say
        wrapper = connections["default"]
        wrapper.connection.close()
        # What PostgreSQL's check says of such a connection (SQLite's always says usable).
        monkeypatch.setattr(type(wrapper), "is_usable", lambda _self: False)

    in_poll_context(polls, break_it)
    assert asgi_poll(polls, client, path, query)[0] == 404  # Django answers this one
    assert in_poll_context(polls, lambda: connections["default"].connection) is None
    assert asgi_poll(polls, client, path, query)[0] == 304
    assert in_poll_context(polls, lambda: connections["default"].connection) is not None


def test_a_failure_after_the_poll_is_logged_not_raised(polls, table, monkeypatch, caplog) -> None:
    _club, _players, member, evening, _game = table
    client = let_in(member, evening)

    def fails() -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(
        type(connections["default"]), "close_if_unusable_or_obsolete", lambda _self: fails()
    )
    path = reverse("evening_live", args=[evening.pk])
    with caplog.at_level(logging.WARNING):
        assert asgi_poll(polls, client, path, f"version={evening.version}")[0] == 304
    assert "could not be closed" in caplog.text


def test_the_server_start_and_stop_are_acknowledged(polls) -> None:
    messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])
    sent: list[str] = []

    async def receive() -> dict[str, Any]:
        return next(messages)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message["type"])

    polls.run(lambda: polls.application({"type": "lifespan"}, receive, send))
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
