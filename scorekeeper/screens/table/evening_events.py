"""The live follow as Server-Sent Events: a phone holds one stream, told its evening's
version now and at each change, and asks the live answer only when it differs from its page's
(docs/decisions/0011; the watcher and its one connection: docs/architecture.md). Only an ASGI
server streams (``scorekeeper.asgi``); under WSGI, or past ``EVENT_STREAMS_MAX`` streams, the
answer is 204 and the page polls. A stream ends after ``EVENT_STREAM_SECONDS``, once its
access is gone or its evening deleted, or when the phone hangs up.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, connection, connections
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_http_methods

from scorekeeper.models import Evening
from scorekeeper.screens.access import evening_for
from scorekeeper.screens.table.evening_views import shared_evening
from scorekeeper.server.error_pages import Refusal

WATCH_EVERY = 1.0  # seconds between two readings of the followed evenings' versions
KEEP_ALIVE = 20.0  # seconds of silence before a comment line keeps proxies from hanging up
RETRY_MS = 4000  # the browser's wait before it opens a stream again

#: What an access check raises when the session may no longer see the evening.
REFUSED = (Http404, PermissionDenied, Refusal)

Check = Callable[[], Evening]  # the evening, read again after the session's access check


@dataclass(eq=False)
class _Follower:
    """One open stream: the version it was last told, its check, where news arrive."""

    evening_id: int
    version: int
    check: Check
    news: asyncio.Queue[int | None] = field(default_factory=asyncio.Queue)


class _Watch:
    """The process's streams by evening, and the one task that reads their versions."""

    def __init__(self) -> None:
        self.followers: dict[int, set[_Follower]] = {}
        self.streams = 0  # read by the views' threads: a number, never the dict
        self.task: asyncio.Task[None] | None = None
        # One thread, one database connection, for every reading and check of the process.
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="evening-events")

    def follow(self, follower: _Follower) -> None:
        self.followers.setdefault(follower.evening_id, set()).add(follower)
        self.streams += 1
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            # A context of its own: not the first stream's request (its locale, its thread).
            self.task = loop.create_task(self._run(), context=contextvars.Context())

    def leave(self, follower: _Follower) -> None:
        followers = self.followers.get(follower.evening_id, set())
        if follower in followers:
            followers.discard(follower)
            self.streams -= 1
        if not followers:
            self.followers.pop(follower.evening_id, None)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(WATCH_EVERY)
            if not self.followers:
                # Nobody follows: the thread's connection goes until a stream comes back. One
                # that came meanwhile found this task running (follow): it is watched on.
                await loop.run_in_executor(self.thread, connections.close_all)
                if not self.followers:
                    return
                continue
            following = {key: list(value) for key, value in self.followers.items()}
            for follower, version in await loop.run_in_executor(self.thread, _news, following):
                if version is not None:
                    follower.version = version
                follower.news.put_nowait(version)


def _news(following: dict[int, list[_Follower]]) -> list[tuple[_Follower, int | None]]:
    """What to tell whom (in the watcher's thread): a new version, or None when the stream
    must end (its evening deleted, its access gone). Nothing while the database is away."""
    try:
        versions = dict(Evening.objects.filter(pk__in=list(following)).values_list("pk", "version"))
        told: list[tuple[_Follower, int | None]] = []
        for evening_id, followers in following.items():
            version = versions.get(evening_id)
            for follower in followers:
                if version is None:
                    told.append((follower, None))
                elif version != follower.version:
                    told.append((follower, _checked(follower.check)))
        return told
    except DatabaseError:
        connection.close()  # a new one at the next reading
        return []


def _checked(check: Check) -> int | None:
    """The version after the access check, or None when access is refused."""
    try:
        return check().version
    except REFUSED:
        return None


WATCH = _Watch()


def _event(version: int) -> str:
    return f"event: version\ndata: {version}\n\n"


async def _stream(follower: _Follower) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    # The request's thread (its check's, its middleware's): a stream holds no connection.
    await sync_to_async(connections.close_all)()
    WATCH.follow(follower)
    try:
        yield f"retry: {RETRY_MS}\n\n{_event(follower.version)}"
        deadline = loop.time() + settings.EVENT_STREAM_SECONDS
        while (left := deadline - loop.time()) > 0:
            try:
                version = await asyncio.wait_for(follower.news.get(), min(KEEP_ALIVE, left))
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            if version is None:
                return
            yield _event(version)
    finally:
        WATCH.leave(follower)


def _answer(request: HttpRequest, check: Check) -> HttpResponse:
    """The stream after the first access check (a refusal raises as any view's would); 204
    where this process does not stream. A plain view: under WSGI it never leaves this thread;
    under ASGI the handler reads the stream's events on its loop."""
    if not isinstance(request, ASGIRequest) or WATCH.streams >= settings.EVENT_STREAMS_MAX:
        return HttpResponse(status=204)
    evening = check()
    follower = _Follower(evening_id=evening.pk, version=evening.version, check=check)
    # Each event is flushed as it is: not gzipped (GZipMiddleware reads this header).
    request.META.pop("HTTP_ACCEPT_ENCODING", None)
    response = StreamingHttpResponse(_stream(follower), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response


@require_http_methods(["GET"])
def evening_events(request: HttpRequest, evening_id: int) -> HttpResponse:
    return _answer(request, lambda: evening_for(request, evening_id)[0])


@require_http_methods(["GET"])
def evening_shared_events(request: HttpRequest, token: str) -> HttpResponse:
    return _answer(request, lambda: shared_evening(token))
