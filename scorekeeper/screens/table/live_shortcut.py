"""The live poll's "nothing changed", answered before Django's handler.

Nearly every request a table sends is a phone asking whether its evening moved (every 4 s,
five phones a table); nearly every answer is 304. ``reads.live`` answers it from one
compiled query. Going through the whole middleware first (sessions, locale, CSRF, messages,
security headers, the URL resolver) more than doubled it; going through Django's handler
at all (its request object, its signals, the request log's middleware) cost a fifth of
what gunicorn spent on a poll. So the poll is answered in two places, each as early as it can:

- ``LivePollFirst`` wraps the WSGI application gunicorn serves (``scorekeeper.wsgi``): a
  poll it can answer never reaches Django's handler; it writes the request log's line
  itself.
- ``LivePollShortcut``, right after the request log in MIDDLEWARE, does the same inside
  Django's chain, for what is served without ``scorekeeper.wsgi`` (the test client, the
  browser tests' live server). A poll the wrapper already asked about is not asked again.

- ``LivePolls`` is an ASGI application for a process of its own (``scorekeeper.asgi_polls``,
  served by uvicorn): nginx sends it the polls, and it answers the same 304, or 404 for
  "ask Django", on which nginx hands the request to gunicorn (README, "Deployment"). A
  sync worker of gunicorn spends more on a request's HTTP (a new connection from nginx,
  its Python parser, the WSGI environ) than on the poll itself; the poll process keeps
  its connections from nginx and parses in C, and the polls no longer queue behind a save
  for a sync worker, nor a save behind hundreds of polls.

All of them answer only when ``reads.live`` can (the session or share link was let in lately
and the version is the phone's); anything else, a database or cache error included, goes
the usual way with every check. A 304 has no body: the security headers of the usual way
concern a document; the private pages' ``no-store`` is set here too.
"""

from __future__ import annotations

import contextvars
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse
from django.http.cookie import parse_cookie

from scorekeeper.reads import live
from scorekeeper.server import request_log
from scorekeeper.server.parsing import IdConverter, TokenConverter, parse_count, parse_id

# The paths of the two polls, as the URL converters (<id:>, <token:>) read them.
_MEMBER = re.compile(rf"/evenings/({IdConverter.regex})/live/")
_SHARED = re.compile(rf"/shared/({TokenConverter.regex})/live/")
#: Set in the WSGI environ once a poll was asked about (the middleware does not ask again).
ASKED = "scorekeeper.live_poll_asked"
NOT_MODIFIED = 304
HEADERS = [("Cache-Control", "private, no-store")]

logger = logging.getLogger(__name__)


def poll_unchanged(environ: dict[str, Any]) -> bool:
    """True if the request (its WSGI environ) is a live poll that ``reads.live`` can answer
    "nothing changed". Never raises: anything unexpected is left to the usual way."""
    environ[ASKED] = True
    if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
        return False
    query = environ.get("QUERY_STRING", "")
    if "version" not in query:
        return False
    path = environ.get("PATH_INFO", "")
    member = _MEMBER.fullmatch(path)
    shared = _SHARED.fullmatch(path) if member is None else None
    if member is None and shared is None:
        return False
    try:
        version = parse_count(dict(parse_qsl(query)).get("version"))
        if version is None:
            return False
        if member is not None:
            evening_id = parse_id(member[1])
            cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
            session_key = cookies.get(settings.SESSION_COOKIE_NAME, "")
            return evening_id is not None and live.member_unchanged(
                session_key, evening_id, version
            )
        return live.shared_unchanged(shared[1], version)
    except Exception:  # the cache away, say: the usual way has the checks and the answers
        logger.debug("live poll: the short way failed, the usual way answers", exc_info=True)
        return False


StartResponse = Callable[..., Any]
Application = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class LivePollFirst:
    """The WSGI application that answers unchanged polls before ``application`` sees them."""

    def __init__(self, application: Application) -> None:
        self.application = application

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        if not poll_unchanged(environ):
            return self.application(environ, start_response)
        start_response("304 Not Modified", list(HEADERS))
        _log_not_modified(environ, started)
        return []


def _log_not_modified(environ: dict[str, Any], started: float) -> None:
    """The request log's line of a 304 answered here (Django's middleware never saw it)."""
    if request_log.logger.isEnabledFor(logging.INFO):
        elapsed = round((time.perf_counter() - started) * 1000, 2)
        path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD")
        request_log.log_request(method, path, NOT_MODIFIED, elapsed, size=0)


#: The poll process's "not mine": nginx hands the request to Django (``error_page 404``).
ASK_DJANGO = 404
_ASGI_HEADERS = [(name.lower().encode(), value.encode()) for name, value in HEADERS]
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def asgi_environ(scope: Scope) -> dict[str, Any]:
    """What ``poll_unchanged`` reads of a request, from its ASGI scope."""
    cookies = [value for name, value in scope.get("headers", ()) if name == b"cookie"]
    return {
        "REQUEST_METHOD": scope.get("method", ""),
        "SCRIPT_NAME": scope.get("root_path", ""),
        "PATH_INFO": scope.get("path", ""),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "HTTP_COOKIE": b"; ".join(cookies).decode("latin-1"),
    }


class LivePolls:
    """The ASGI application of the poll process: 304 when ``reads.live`` says "unchanged",
    else an empty 404 that nginx turns into the same request to Django.

    The check is Django's blocking code (its cache, its database connection), run in the
    event loop's thread to its end before the answer is sent: one check at a time, each a
    query on loopback. It runs in one context of its own (``context``), where Django keeps
    one connection and one cache client as it does in a sync worker: from the loop's
    tasks, each with its context, Django would open a connection for every request; in a
    thread of its own, the check waited for the interpreter's lock behind the loop (a poll's
    p50 went from 4 to 10 ms under load). After each poll the connection is checked as
    Django checks it after a request: closed if an error left it unusable or it outlived
    ``CONN_MAX_AGE``, and opened again by the next poll."""

    def __init__(self) -> None:
        self.context = contextvars.Context()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        started = time.perf_counter()
        environ = asgi_environ(scope)
        unchanged = self.context.run(_check, environ)
        status = NOT_MODIFIED if unchanged else ASK_DJANGO
        await send({"type": "http.response.start", "status": status, "headers": _ASGI_HEADERS})
        await send({"type": "http.response.body", "body": b""})
        if unchanged:
            _log_not_modified(environ, started)


def _check(environ: dict[str, Any]) -> bool:
    """``poll_unchanged``, then the connection seen to (in the poll process's context)."""
    try:
        return poll_unchanged(environ)
    finally:
        _after_poll()


def _after_poll() -> None:
    """What Django does with its connections after a request: one an error left unusable,
    or past its age, is closed (the next poll opens another). Never raises."""
    try:
        connections["default"].close_if_unusable_or_obsolete()
    except Exception:
        logger.warning("live poll: the database connection could not be closed", exc_info=True)


async def _lifespan(receive: Receive, send: Send) -> None:
    """Nothing to start or stop: the server's start-up and shutdown are acknowledged."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


class LivePollShortcut:
    """The same answer inside Django's middleware, when the WSGI wrapper did not ask."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.META.get(ASKED) and poll_unchanged(request.META):
            response = HttpResponse(status=NOT_MODIFIED)
            for header, value in HEADERS:
                response[header] = value
            return response
        return self.get_response(request)
