"""Django's Redis cache, kept working while Redis is away; one client per connection pool,
kept for the process.

Redis holds nothing that is not in the database: while it does not answer, a read is a miss
and a write does nothing, so every page and every save is served from the database, slower.
A dead Redis costs milliseconds (a short connect timeout), and only one call every
``RETRY_SECONDS`` per process tries it (the others do not wait on it); the log says once
that it is down, and once that it is back.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` around its pool for every cache
call, and building one (its table of reply callbacks) cost about as much as the call itself:
65 µs against 90 µs for a ``get``, several times a request, on the poll most phones send every few
seconds. A ``redis.Redis`` is safe to share between threads (each command takes a
connection from the pool), and the pool itself starts afresh in a forked worker.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from django.core.cache.backends import redis as django_redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: While Redis is down, one call per process tries it again this often; the others skip it.
RETRY_SECONDS = 2.0
#: The pool's timeouts (OPTIONS may set others): connecting (a host that drops packets), and
#: waiting for an answer (a Redis that accepts but hangs). Redis answers in a millisecond.
SOCKET_OPTIONS = {"socket_connect_timeout": 0.2, "socket_timeout": 0.5}


def _where(location: str) -> str:
    """The Redis's address for the log: host and port (or socket path), no password."""
    parts = urlsplit(location)
    if parts.scheme == "unix":
        return parts.path
    return f"{parts.hostname}:{parts.port or 6379}"


class Outage:
    """Whether the Redis at one address is taken as down, in this process (every thread and
    every cache using it): while it is, a call gets on without it, and only one call every
    ``RETRY_SECONDS`` tries it again."""

    every: dict[str, Outage] = {}
    _made = threading.Lock()

    def __init__(self, where: str) -> None:
        self.where = where
        self.down = False
        self.retry_at = 0.0
        self.lock = threading.Lock()

    @classmethod
    def of(cls, location: str) -> Outage:
        where = _where(location)
        with cls._made:
            return cls.every.setdefault(where, cls(where))

    def skip(self) -> bool:
        """True while down, unless this call is the one to try again."""
        if not self.down:
            return False
        with self.lock:
            now = time.monotonic()
            if now < self.retry_at:
                return True
            self.retry_at = now + RETRY_SECONDS  # this call tries; the others skip meanwhile
            return False

    def failed(self, error: RedisError) -> None:
        with self.lock:
            self.retry_at = time.monotonic() + RETRY_SECONDS
            if self.down:
                return
            self.down = True
        why = " ".join(f"{type(error).__name__}: {error}".split())[:300]
        logger.error(
            "Redis at %s is down (%s): the cache is off, pages and saves go to the database; "
            "trying it again every %.0f s",
            self.where,
            why,
            RETRY_SECONDS,
        )

    def answered(self) -> None:
        if not self.down:
            return
        with self.lock:
            if not self.down:
                return
            self.down = False
        logger.warning("Redis at %s is back: the cache is on again", self.where)


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # Django's, kept for the process
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with the client above, that answers as
    an empty cache while Redis is down: a read finds nothing, a write keeps nothing (``add``
    says it stored, as Django's dummy cache does: the caller goes on with its value)."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        options = {**SOCKET_OPTIONS, **(params.get("OPTIONS") or {})}
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = RedisCacheClient
        self._outage = Outage.of(self._servers[0])

    def _redis(self, if_down: T, call: Callable[[], T]) -> T:
        """``call``'s answer, or ``if_down`` when Redis does not give one."""
        if self._outage.skip():
            return if_down
        try:
            answer = call()
        except RedisError as error:
            self._outage.failed(error)
            return if_down
        self._outage.answered()
        return answer

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        return self._redis(True, functools.partial(super().add, key, value, timeout, version))

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._redis(default, functools.partial(super().get, key, default, version))

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._redis(None, functools.partial(super().set, key, value, timeout, version))

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._redis(False, functools.partial(super().touch, key, timeout, version))

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._redis(False, functools.partial(super().delete, key, version))

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._redis({}, functools.partial(super().get_many, keys, version))

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._redis(False, functools.partial(super().has_key, key, version))

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        missing = object()
        answer = self._redis(missing, functools.partial(super().incr, key, delta, version))
        if answer is missing:
            raise ValueError(f"Key '{key}' not found.")  # as for any key the cache has not
        return answer  # type: ignore[return-value]

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        return self._redis([], functools.partial(super().set_many, data, timeout, version))

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._redis(None, functools.partial(super().delete_many, keys, version))

    def clear(self) -> None:
        self._redis(None, super().clear)


class SessionCache(RedisCache):
    """The sessions' copies (Django's ``cached_db`` sessions; the database keeps them all):
    none kept past the cache's ``TIMEOUT``, whatever the session's own age. A sign-out
    while Redis was unreachable deletes the session from the database, not its copy; should
    that Redis come back with its memory, the copy is gone within ``TIMEOUT`` seconds."""

    def get_backend_timeout(self, timeout: Any = DEFAULT_TIMEOUT) -> Any:
        if timeout is DEFAULT_TIMEOUT or timeout is None or timeout > self.default_timeout:
            timeout = self.default_timeout
        return super().get_backend_timeout(timeout)
