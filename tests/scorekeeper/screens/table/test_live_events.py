"""A phone follows its evening through one event stream: the version now, then each new one;
the same access as the live poll, checked again before each new version; under WSGI, or
past the process's streams, a 204 that sends the page back to its polls."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from django.db import connections
from django.test import AsyncClient, Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Evening, Membership
from scorekeeper.scoring.tarot import TarotDeal
from scorekeeper.screens.table import evening_events
from tests.factories import followed_table

pytestmark = pytest.mark.django_db(transaction=True)

T = TypeVar("T")  # the watcher reads from its own thread


@pytest.fixture(autouse=True)
def quick_watch(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(evening_events, "WATCH_EVERY", 0.02)
    evening_events.WATCH.followers.clear()
    evening_events.WATCH.streams = 0
    yield
    # A phone's loop ends with the watcher asleep: the connections of its thread and of the
    # views' thread are closed here (PostgreSQL would not drop the test database).
    for thread in (evening_events.WATCH.thread, SyncToAsync.single_thread_executor):
        thread.submit(connections.close_all).result(timeout=10)


def _save(game) -> int:
    seated = tuple(game.seats.order_by("position").values_list("player_id", flat=True))
    services.deal_record(
        game=game,
        inputs=TarotDeal(seated=seated, taker=seated[0], contract="garde", bouts=2, points=50),
    )
    return Evening.objects.get(pk=game.evening_id).version


def _run(phone: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """The phone's exchange on an event loop of its own, in a thread of its own (the browser
    tests leave a loop in the test thread, where async_to_sync refuses to run)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, phone()).result()


async def _next(stream: AsyncIterator[bytes], seconds: float = 5.0) -> str:
    """The stream's next piece; on time running out, the phone hangs up (TimeoutError)."""
    return (await asyncio.wait_for(anext(stream), seconds)).decode()


def _opened(client: AsyncClient, url: str):
    async def opened():
        response = await client.get(url)
        return response, aiter(response.streaming_content)

    return opened()


def test_under_wsgi_the_events_address_answers_204_and_the_page_polls(client: Client) -> None:
    _club, _players, member, evening, _game = followed_table()
    evening = services.share_link_create(evening=evening)
    client.force_login(member)
    assert client.get(reverse("evening_events", args=[evening.pk])).status_code == 204
    shared = reverse("evening_shared_events", args=[evening.share_token])
    assert client.get(shared).status_code == 204


def test_the_evening_page_and_its_shared_copy_name_their_events_address(client: Client) -> None:
    _club, _players, member, evening, _game = followed_table()
    evening = services.share_link_create(evening=evening)
    client.force_login(member)
    page = client.get(reverse("evening", args=[evening.pk])).text
    assert f'data-events-url="{reverse("evening_events", args=[evening.pk])}"' in page
    shared = client.get(reverse("evening_shared", args=[evening.share_token])).text
    assert f'data-events-url="{reverse("evening_shared_events", args=[evening.share_token])}"' in (
        shared
    )


def test_a_members_stream_tells_the_version_now_then_each_new_one() -> None:
    _club, _players, member, evening, game = followed_table()

    async def follow() -> list[str]:
        client = AsyncClient()
        await sync_to_async(client.force_login)(member)
        response, stream = await _opened(client, reverse("evening_events", args=[evening.pk]))
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        assert "Content-Encoding" not in response  # each event flushed as it is
        first = await _next(stream)
        new = await sync_to_async(_save)(game)
        second = await _next(stream)
        assert evening_events.WATCH.streams == 1
        with pytest.raises(TimeoutError):  # nothing more while nothing changes
            await _next(stream, 0.2)
        return [first, second, f"event: version\ndata: {new}\n\n"]

    first, second, expected = _run(follow)
    assert first == f"retry: 4000\n\nevent: version\ndata: {evening.version}\n\n"
    assert second == expected
    assert evening_events.WATCH.streams == 0  # the phone hung up: the stream left the watch


def test_the_shared_links_stream_follows_the_evening_and_ends_once_the_link_is_revoked() -> None:
    _club, _players, _member, evening, game = followed_table()
    evening = services.share_link_create(evening=evening)

    async def follow() -> list[str]:
        client = AsyncClient()
        url = reverse("evening_shared_events", args=[evening.share_token])
        _response, stream = await _opened(client, url)
        told = [await _next(stream)]
        new = await sync_to_async(_save)(game)
        told.append(await _next(stream))
        told.append(f"event: version\ndata: {new}\n\n")
        await sync_to_async(services.share_link_revoke)(evening=evening)
        await sync_to_async(_save)(game)
        with pytest.raises(StopAsyncIteration):
            await _next(stream)
        return told

    first, second, expected = _run(follow)
    assert first.endswith(f"event: version\ndata: {evening.version}\n\n")
    assert second == expected


def test_a_stranger_gets_no_stream() -> None:
    _club, _players, _member, evening, _game = followed_table()

    async def ask() -> int:
        return (await AsyncClient().get(reverse("evening_events", args=[evening.pk]))).status_code

    assert _run(ask) == 404
    assert evening_events.WATCH.streams == 0


def test_a_members_open_stream_ends_without_the_new_version_once_they_are_removed() -> None:
    _club, _players, member, evening, game = followed_table()

    async def follow() -> list[str]:
        client = AsyncClient()
        await sync_to_async(client.force_login)(member)
        _response, stream = await _opened(client, reverse("evening_events", args=[evening.pk]))
        told = [await _next(stream)]
        membership = await Membership.objects.aget(user=member, club_id=evening.club_id)
        await sync_to_async(services.member_remove)(membership=membership)
        await sync_to_async(_save)(game)
        with pytest.raises(StopAsyncIteration):
            told.append(await _next(stream))
        return told

    assert len(_run(follow)) == 1


def test_past_the_streams_a_process_holds_the_answer_is_204(settings) -> None:
    settings.EVENT_STREAMS_MAX = 1
    _club, _players, member, evening, _game = followed_table()

    async def two_phones() -> list[int]:
        client = AsyncClient()
        await sync_to_async(client.force_login)(member)
        url = reverse("evening_events", args=[evening.pk])
        first, stream = await _opened(client, url)
        await _next(stream)
        second = await client.get(url)
        with pytest.raises(TimeoutError):
            await _next(stream, 0.05)  # the first phone hangs up
        return [first.status_code, second.status_code]

    assert _run(two_phones) == [200, 204]


def test_a_stream_ends_after_its_time_and_keeps_the_line_alive_meanwhile(
    settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.EVENT_STREAM_SECONDS = 0.5
    monkeypatch.setattr(evening_events, "KEEP_ALIVE", 0.2)
    _club, _players, member, evening, _game = followed_table()

    async def follow() -> list[str]:
        client = AsyncClient()
        await sync_to_async(client.force_login)(member)
        _response, stream = await _opened(client, reverse("evening_events", args=[evening.pk]))
        return [piece async for piece in _pieces(stream)]

    told = _run(follow)
    assert told[0].startswith("retry: 4000")
    assert told[1:] and set(told[1:]) == {": keep-alive\n\n"}
    assert evening_events.WATCH.streams == 0


async def _pieces(stream: AsyncIterator[bytes]) -> AsyncIterator[str]:
    while True:
        try:
            yield await _next(stream, 2.0)
        except StopAsyncIteration:
            return


def test_a_stream_opened_while_the_watcher_lets_its_connection_go_is_still_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _club, _players, _member, evening, game = followed_table()
    watch = evening_events._Watch()
    closing, go_on = threading.Event(), threading.Event()

    class SlowToClose:  # the watcher's thread letting its connection go, held there a moment
        def close_all(self) -> None:
            closing.set()
            go_on.wait(5)
            connections.close_all()

    monkeypatch.setattr(evening_events, "connections", SlowToClose())

    def follower() -> evening_events._Follower:
        check = lambda: Evening.objects.get(pk=evening.pk)  # noqa: E731
        return evening_events._Follower(evening.pk, evening.version, check)

    async def phone() -> tuple[int | None, int]:
        first = follower()
        watch.follow(first)  # the watcher starts, then nobody follows
        watch.leave(first)
        await asyncio.get_running_loop().run_in_executor(None, closing.wait, 5)
        second = follower()
        watch.follow(second)  # while the watcher closes its connection
        go_on.set()
        saved = await sync_to_async(_save)(game)
        try:
            return await asyncio.wait_for(second.news.get(), 5), saved
        finally:
            watch.leave(second)

    try:
        told, saved = _run(phone)
    finally:
        go_on.set()
        watch.thread.submit(connections.close_all).result(timeout=10)
        watch.thread.shutdown()
    assert closing.is_set() and told == saved
