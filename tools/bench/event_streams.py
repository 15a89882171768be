"""The phones' event streams during ``manage.py loadtest --live events``: held by this process.

Each phone opens its evening's ``/…/events/`` through nginx and keeps it open for the whole
load, as ``EventSource`` does: an HTTP/1.1 GET with the phone's cookie, then the
``text/event-stream`` body read line by line (chunked, as nginx passes on uvicorn's stream).
One asyncio loop in a thread of its own holds them all (``Streams``), and counts what
happened: streams opened, refused (an answer other than 200, 204 included: the page would
poll), dropped (ended or broken during the load; reopened after the stream's ``retry``, as
``EventSource`` does), and the version events after each stream's first (the evening moved).
What a phone fetches after such an event is wrk's "live update (200)" kind, not this.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from tools.bench import local_servers

OPENING_AT_ONCE = 50  # streams being opened at the same time (the others wait their turn)
RETRY_SECONDS = 4.0  # until the stream names its own ``retry:``
READ_LIMIT = 1 << 16


@dataclass
class Event:
    """One event of a stream: its type (``message`` when unnamed) and its data."""

    name: str
    data: str


@dataclass
class EventParser:
    """Server-Sent Events as the HTML standard reads them: ``event:``, ``data:`` (lines
    joined by newlines), ``retry:``, comments (``:``) skipped, an event dispatched at its
    blank line, none without data."""

    retry_ms: int | None = None
    _pending: bytes = b""
    _name: str = ""
    _data: list[str] = field(default_factory=list)

    def feed(self, chunk: bytes) -> list[Event]:
        """The events completed by ``chunk`` (a part of a line waits for the rest)."""
        events: list[Event] = []
        self._pending += chunk
        *lines, self._pending = self._pending.split(b"\n")
        for raw in lines:
            line = raw.removesuffix(b"\r").decode("utf-8", "replace")
            if not line:
                if self._data:
                    events.append(Event(self._name or "message", "\n".join(self._data)))
                self._name, self._data = "", []
                continue
            if line.startswith(":"):
                continue
            name, _colon, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                self._name = value
            elif name == "data":
                self._data.append(value)
            elif name == "retry" and value.isdigit():
                self.retry_ms = int(value)
        return events


@dataclass
class StreamFigures:
    """What the streams did: those asked for, and what happened to them."""

    phones: int = 0  # streams held, one a phone
    opened: int = 0  # answered 200 with an event stream (reopenings included)
    refused: int = 0  # answered anything else (204: the page would poll)
    dropped: int = 0  # ended or broken while the load ran
    versions: int = 0  # version events after each stream's first: the evening moved
    open_at_end: int = 0  # streams open when the load ended
    statuses: Counter[int] = field(default_factory=Counter)
    seconds_to_open: float = 0.0  # from the first opening to the last phone's stream

    def as_json(self) -> dict[str, Any]:
        return {
            "phones": self.phones,
            "opened": self.opened,
            "refused": self.refused,
            "dropped": self.dropped,
            "version_events": self.versions,
            "open_at_end": self.open_at_end,
            "statuses": {str(status): n for status, n in sorted(self.statuses.items())},
            "seconds_to_open": round(self.seconds_to_open, 2),
        }


def request(path: str, host: str, cookie: str) -> bytes:
    """What ``EventSource`` sends for ``path`` (the phone's cookie with it)."""
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n"
        f"Cache-Control: no-cache\r\nCookie: {cookie}\r\n\r\n"
    ).encode("latin-1")


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """An HTTP answer's status and headers (names in lower case)."""
    status_line = await reader.readline()
    parts = status_line.split()
    if len(parts) < 2 or not parts[1].isdigit():
        raise ConnectionError(f"not an HTTP answer: {status_line[:80]!r}")
    headers: dict[str, str] = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            return int(parts[1]), headers
        name, _colon, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()


async def body_chunks(
    reader: asyncio.StreamReader, headers: dict[str, str]
) -> AsyncIterator[bytes]:
    """The body's bytes as they come: chunked (nginx's HTTP/1.1 answer) or until the end."""
    if "chunked" in headers.get("transfer-encoding", "").lower():
        while True:
            size_line = await reader.readline()
            if not size_line:
                return
            size = int(size_line.split(b";")[0].strip() or b"0", 16)
            if size == 0:
                return
            data = await reader.readexactly(size + 2)  # the chunk and its CRLF
            yield data[:-2]
    else:
        while data := await reader.read(READ_LIMIT):
            yield data


class Streams:
    """Every phone's stream (``(path, cookie)`` each) through ``origin``, held in a thread."""

    def __init__(self, origin: str, phones: list[tuple[str, str]]) -> None:
        address = urlsplit(origin)
        self.host, self.port = address.hostname or "127.0.0.1", address.port or 80
        self.phones = phones
        self.figures = StreamFigures(phones=len(phones))
        self._open: set[int] = set()
        self._all_open = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="event-streams", daemon=True)
        self._holding = True  # False once the load has ended: an end then is no drop

    def start(self) -> None:
        local_servers.raise_open_files()  # a socket a stream
        self._thread.start()

    def wait_open(self, seconds: float) -> int:
        """Until every phone's stream is open (or was refused), at most ``seconds``; how many
        are open."""
        self._all_open.wait(seconds)
        return len(self._open)

    def stop(self) -> StreamFigures:
        """The load is over: the figures, with the streams open now; then every stream
        closed."""
        self.figures.open_at_end = len(self._open)
        self._holding = False
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(30)
        return self.figures

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._hold_all())
        finally:
            self._loop.close()

    async def _hold_all(self) -> None:
        self._stop = asyncio.Event()
        opening = asyncio.Semaphore(OPENING_AT_ONCE)
        settled = [0]
        started = time.monotonic()

        def one_settled() -> None:
            settled[0] += 1
            if settled[0] == len(self.phones):
                self.figures.seconds_to_open = time.monotonic() - started
                self._all_open.set()

        tasks = [
            asyncio.create_task(self._hold(number, path, cookie, opening, one_settled))
            for number, (path, cookie) in enumerate(self.phones)
        ]
        if not tasks:
            self._all_open.set()
        await self._stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _hold(
        self,
        number: int,
        path: str,
        cookie: str,
        opening: asyncio.Semaphore,
        settled: Callable[[], None],
    ) -> None:
        """One phone's stream, reopened after ``retry`` when it ends, as ``EventSource``."""
        first_answer = True
        retry = RETRY_SECONDS
        while True:
            writer = None
            try:
                async with opening:
                    reader, writer = await asyncio.open_connection(
                        self.host, self.port, limit=READ_LIMIT
                    )
                    writer.write(request(path, f"{self.host}:{self.port}", cookie))
                    await writer.drain()
                    status, headers = await read_head(reader)
                self.figures.statuses[status] += 1
                streaming = headers.get("content-type", "").startswith("text/event-stream")
                if status != 200 or not streaming:
                    self.figures.refused += 1
                    if first_answer:
                        settled()
                    return  # EventSource stops: the page would poll
                self.figures.opened += 1
                self._open.add(number)
                if first_answer:
                    first_answer = False
                    settled()
                parser, seen = EventParser(), 0
                async for chunk in body_chunks(reader, headers):
                    for event in parser.feed(chunk):
                        if event.name == "version":
                            seen += 1
                            if seen > 1:  # the first says where the stream starts
                                self.figures.versions += 1
                if parser.retry_ms is not None:
                    retry = parser.retry_ms / 1000
            except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError):
                if first_answer:  # never answered: counted as refused
                    self.figures.refused += 1
                    settled()
                    return
            finally:
                self._open.discard(number)
                if writer is not None:
                    writer.close()
                    with contextlib.suppress(Exception):
                        await writer.wait_closed()
            if self._holding:
                self.figures.dropped += 1
            await asyncio.sleep(retry)
