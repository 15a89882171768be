"""The live poll's short way: "nothing changed" (304) from one tiny query and the cache.

Phones following an evening ask every few seconds whether its ``version`` moved; nearly
every answer is 304. The full way (evening_views) loads the session, the user, the evening,
the club and the membership before it compares. Once it has let a session (or a share link)
read an evening, the let-in is kept in the shared cache for ``ACCESS_SECONDS``, with its
end, and copied in each process that reads it; while it holds, a poll costs one primary-key
query for the version (compiled once per connection: compiling it cost more than running
it), which is also the connection's health check. A 304 tells nothing but "unchanged", and
anything else (a new version, no let-in) goes the full way with every check, so a member
removed meanwhile learns nothing new. ``screens/table/live_shortcut`` asks here first, with
what it parsed from the request (the session cookie, the share token, the version).
"""

from __future__ import annotations

import hashlib
import time

from django.core.cache import cache
from django.db import DatabaseError, connections
from django.http import HttpRequest

from scorekeeper.models import Evening
from scorekeeper.server import shared_cache
from scorekeeper.server.prepared import Prepared

#: How long a session (or share link) let in by the full checks polls the short way. A 304
#: tells nothing but "unchanged", so a member removed meanwhile learns nothing by it; every
#: other answer goes the full way. Five minutes: a club night's phones (a thousand and more)
#: go the full way a few times a second, not dozens.
ACCESS_SECONDS = 300
#: This process's copies of the let-ins it read or wrote: (what, until when). Each poll
#: would otherwise ask the shared cache, a round trip as dear as the version query.
_let_in = shared_cache.LocalMemo(16384)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:32]


def _member_key(session_key: str, evening_id: int) -> str:
    return f"live.member.{_digest(session_key)}.{evening_id}"


def _shared_key(token: str) -> str:
    return f"live.shared.{_digest(token)}"


EVENING = 2_000_000_023  # the stand-in evening id the version query is compiled with
#: The version of one evening: the query nearly every poll asks, compiled once per connection.
_version = Prepared(
    lambda evening: Evening.objects.filter(pk=evening).values_list("version"), EVENING
)


def _unchanged(evening_id: int, version: int) -> bool:
    connection = connections["default"]
    # The version query is this request's health check of a kept connection (no "SELECT 1"
    # before it, a round trip as dear as the query): if the database dropped the connection
    # the query fails, and the full way checks the connection, replaced, as every request.
    connection.health_check_done = True
    try:
        found = _version.tuples(evening_id)
    except DatabaseError:
        connection.health_check_done = False
        return False
    return bool(found) and found[0][0] == version


def _lately(key: str) -> object:
    """What a let-in holds while it lasts (None when there is none): this process's copy,
    else the shared cache's, copied (it carries its end, so a copy never outlives it)."""
    now = time.time()
    kept = _let_in.get(key)
    if kept is not None and kept[1] > now:
        return kept[0]
    found = cache.get(key)
    if not isinstance(found, tuple) or len(found) != 2 or found[1] <= now:
        return None
    _let_in.set(key, found)
    return found[0]


def _let_in_for(key: str, value: object) -> None:
    """Let in for ``ACCESS_SECONDS`` from now; a let-in with more than half of that still to
    run is left as it is (the full way of every live answer would write it again)."""
    now = time.time()
    kept = _let_in.get(key)
    if kept is not None and kept[0] == value and kept[1] - now > ACCESS_SECONDS / 2:
        return
    let_in = (value, now + ACCESS_SECONDS)
    cache.set(key, let_in, ACCESS_SECONDS)
    _let_in.set(key, let_in)


def member_unchanged(session_key: str, evening_id: int, version: int) -> bool:
    """True if this session was let in lately and the evening is at ``version``."""
    if not session_key or _lately(_member_key(session_key, evening_id)) is None:
        return False
    return _unchanged(evening_id, version)


def remember_member(request: HttpRequest, evening_id: int) -> None:
    """The full way let this session read the evening: say so for the next polls."""
    session_key = request.session.session_key
    if session_key:
        _let_in_for(_member_key(session_key, evening_id), evening_id)


def shared_unchanged(token: str, version: int) -> bool:
    """True if the share link led to an evening lately and it is at ``version``."""
    if not token:
        return False
    evening_id = _lately(_shared_key(token))
    return isinstance(evening_id, int) and _unchanged(evening_id, version)


def remember_shared(token: str, evening_id: int) -> None:
    _let_in_for(_shared_key(token), evening_id)
