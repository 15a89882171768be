"""The live poll's short way: "nothing changed" (304) from one tiny query and the cache.

Phones following an evening ask every few seconds whether its ``version`` moved; nearly
every answer is 304. The full way (evening_views) loads the session, the user, the evening,
the club and the membership before it compares. Once it has let a session (or a share link)
read an evening, the answer is kept in the shared cache for ``ACCESS_SECONDS``; while it
holds, a poll costs one cache read and one primary-key query for the version (compiled once
per connection: compiling it cost more than running it). A 304 tells
nothing but "unchanged", and anything else (a new version, no cached answer) goes the full
way with every check, so a member removed meanwhile learns nothing new.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from scorekeeper.models import Evening
from scorekeeper.reads.prepared import Prepared
from scorekeeper.server.parsing import parse_count

ACCESS_SECONDS = 60
NOT_MODIFIED = 304


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


def _unchanged(evening_id: int, version: int) -> HttpResponse | None:
    found = _version.tuples(evening_id)
    current = found[0][0] if found else None
    return HttpResponse(status=NOT_MODIFIED) if current == version else None


def member_not_modified(request: HttpRequest, evening_id: int) -> HttpResponse | None:
    """304 if this session was let in lately and the evening is as the phone has it."""
    version = parse_count(request.GET.get("version"))
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    if version is None or not session_key:
        return None
    if not cache.get(_member_key(session_key, evening_id)):
        return None
    return _unchanged(evening_id, version)


def remember_member(request: HttpRequest, evening_id: int) -> None:
    """The full way let this session read the evening: say so for the next polls."""
    session_key = request.session.session_key
    if session_key:
        cache.set(_member_key(session_key, evening_id), 1, ACCESS_SECONDS)


def shared_not_modified(request: HttpRequest, token: str) -> HttpResponse | None:
    """304 if the share link led to an evening lately and it is as the phone has it."""
    version = parse_count(request.GET.get("version"))
    if version is None or not token:
        return None
    evening_id = cache.get(_shared_key(token))
    if evening_id is None:
        return None
    return _unchanged(evening_id, version)


def remember_shared(token: str, evening_id: int) -> None:
    cache.set(_shared_key(token), evening_id, ACCESS_SECONDS)
