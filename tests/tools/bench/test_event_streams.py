"""The load test's phones hold their event streams as EventSource does (``event_streams``)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
import time
from collections.abc import Iterator

from tools.bench.event_streams import Event, EventParser, Streams, body_chunks, read_head

#: What the events view sends first, then after a deal, with a keep-alive between.
STREAM = (
    b"retry: 4000\n\nevent: version\ndata: 12\n\n: keep-alive\n\nevent: version\r\ndata: 13\r\n\r\n"
)


def test_the_parser_reads_the_version_events_and_the_retry_and_skips_comments() -> None:
    parser = EventParser()
    assert parser.feed(STREAM) == [Event("version", "12"), Event("version", "13")]
    assert parser.retry_ms == 4000


def test_an_event_cut_anywhere_between_two_reads_is_read_once_whole() -> None:
    for cut in range(1, len(STREAM)):
        parser = EventParser()
        events = parser.feed(STREAM[:cut]) + parser.feed(STREAM[cut:])
        assert events == [Event("version", "12"), Event("version", "13")], cut


def test_an_unnamed_event_is_a_message_and_its_data_lines_are_joined() -> None:
    parser = EventParser()
    assert parser.feed(b"data: a\ndata:b\n\nevent: version\n\n") == [Event("message", "a\nb")]


def test_a_chunked_answer_is_read_chunk_by_chunk_to_its_end() -> None:
    async def read() -> tuple[int, list[bytes]]:
        reader = asyncio.StreamReader()
        reader.feed_data(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
            b"d\r\nretry: 4000\n\n\r\n19\r\nevent: version\ndata: 12\n\n\r\n0\r\n\r\n"
        )
        reader.feed_eof()
        status, headers = await read_head(reader)
        return status, [chunk async for chunk in body_chunks(reader, headers)]

    # A thread of its own: a browser test may have left an event loop in this one.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as thread:
        status, chunks = thread.submit(asyncio.run, read()).result()
    assert status == 200
    assert chunks == [b"retry: 4000\n\n", b"event: version\ndata: 12\n\n"]


@contextlib.contextmanager
def events_server(first_line: bytes, body: bytes) -> Iterator[int]:
    """A loopback server answering every request ``first_line`` and ``body`` (chunked), then
    holding the connection open."""
    ready = threading.Event()
    port: list[int] = []
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(first_line + b"Content-Type: text/event-stream\r\n")
        writer.write(b"Transfer-Encoding: chunked\r\n\r\n")
        if body:
            writer.write(b"%x\r\n%s\r\n" % (len(body), body))
        else:
            writer.write(b"0\r\n\r\n")
        await writer.drain()
        with contextlib.suppress(ConnectionError):
            await reader.read()  # until the phone hangs up
        writer.close()

    async def serve() -> None:
        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port.append(server.sockets[0].getsockname()[1])
        ready.set()
        async with server:
            await stop.wait()

    thread = threading.Thread(target=lambda: loop.run_until_complete(serve()), daemon=True)
    thread.start()
    ready.wait(5)
    try:
        yield port[0]
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(5)
        loop.close()


def test_every_phone_holds_its_stream_and_counts_the_versions_after_the_first() -> None:
    with events_server(b"HTTP/1.1 200 OK\r\n", STREAM) as port:
        phones = [(f"/evenings/{n}/events/", "sessionid=x") for n in range(3)]
        streams = Streams(f"http://127.0.0.1:{port}", phones)
        streams.start()
        assert streams.wait_open(10) == 3
        deadline = time.monotonic() + 5
        while streams.figures.versions < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        figures = streams.stop()
    assert (figures.opened, figures.refused, figures.dropped) == (3, 0, 0)
    assert figures.versions == 3  # one a phone: "13", the first ("12") says where it starts
    assert figures.open_at_end == 3
    assert figures.as_json()["statuses"] == {"200": 3}


def test_a_204_is_a_refused_stream_and_not_opened_again() -> None:
    with events_server(b"HTTP/1.1 204 No Content\r\n", b"") as port:
        streams = Streams(f"http://127.0.0.1:{port}", [("/evenings/1/events/", "")])
        streams.start()
        assert streams.wait_open(10) == 0
        figures = streams.stop()
    assert (figures.opened, figures.refused, figures.open_at_end) == (0, 1, 0)
    assert figures.statuses == {204: 1}


def test_a_phone_whose_stream_cannot_connect_is_refused() -> None:
    streams = Streams("http://127.0.0.1:9", [("/evenings/1/events/", "")])
    streams.start()
    assert streams.wait_open(10) == 0
    assert streams.stop().refused == 1
