"""With Redis, sessions are read from it (Django's cached_db, the database keeping them all):
a phone's poll reads its session without a query. Each copy lives 5 minutes at most, so that a
sign-out made while Redis was unreachable cannot be undone for long by Redis coming back.
Without Redis, the database alone: each worker's memory is its own."""

from __future__ import annotations

from scorekeeper.server.redis_cache import SessionCache
from tests.scorekeeper.server.test_production_setup import settings_line

SESSIONS = "s.SESSION_ENGINE, s.SESSION_CACHE_ALIAS, s.CACHES[s.SESSION_CACHE_ALIAS]['BACKEND']"


def test_with_redis_sessions_are_read_from_their_own_redis_cache() -> None:
    line = settings_line(SESSIONS, REDIS_URL="redis://127.0.0.1:6379/0")
    assert line.returncode == 0, line.stderr
    assert line.stdout.split() == [
        "django.contrib.sessions.backends.cached_db",
        "sessions",
        "scorekeeper.server.redis_cache.SessionCache",
    ]


def test_without_redis_sessions_are_in_the_database_alone() -> None:
    line = settings_line(SESSIONS)
    assert line.returncode == 0, line.stderr
    assert line.stdout.split()[0] == "django.contrib.sessions.backends.db"


def test_a_sessions_copy_is_kept_no_longer_than_the_caches_timeout() -> None:
    cache = SessionCache("redis://127.0.0.1:6379/0", {"TIMEOUT": 300})
    two_months = 60 * 60 * 24 * 60  # what cached_db asks: the session's own age
    assert cache.get_backend_timeout(two_months) == 300
    assert cache.get_backend_timeout(None) == 300
    assert cache.get_backend_timeout(60) == 60
