"""Django's Redis cache, kept working while Redis is away (docs/decisions/0004).

Redis holds nothing that is not in the database: while it does not answer, a read is a miss
and a write does nothing, so every page and every save is served from the database, slower.
A dead Redis costs milliseconds (short timeouts), only one call every ``RETRY_SECONDS`` per
process tries it, and the log says once that it is down and once that it is back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar
from urllib.parse import urlsplit

from django.core.cache.backends import redis as django_redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: While Redis is down, one call per process tries it again this often; the others skip it.
RETRY_SECONDS = 2.0
#: The pool's timeouts (OPTIONS may set others): connecting, and waiting for an answer.
SOCKET_OPTIONS = {"socket_connect_timeout": 0.2, "socket_timeout": 0.5}


class Outage:
    """Whether the Redis at one address is taken as down in this process (every thread and
    every cache using it)."""

    every: ClassVar[dict[str, Outage]] = {}
    _made = threading.Lock()

    def __init__(self, where: str) -> None:
        self.where, self.down, self.retry_at = where, False, 0.0
        self.lock = threading.Lock()

    @classmethod
    def of(cls, location: str) -> Outage:
        parts = urlsplit(location)  # the address for the log: no password
        where = parts.path if parts.scheme == "unix" else f"{parts.hostname}:{parts.port or 6379}"
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
            was_down, self.down = self.down, True
        if not was_down:
            why = " ".join(f"{type(error).__name__}: {error}".split())[:300]
            logger.error(
                "Redis at %s is down (%s): the cache is off, pages and saves go to the "
                "database; trying it again every %.0f s",
                *(self.where, why, RETRY_SECONDS),
            )

    def answered(self) -> None:
        if self.down:
            with self.lock:
                was_down, self.down = self.down, False
            if was_down:
                logger.warning("Redis at %s is back: the cache is on again", self.where)


class RedisCache(django_redis.RedisCache):
    """Django's ``RedisCache``, that answers as an empty cache while Redis is down: a read
    finds nothing, a write keeps nothing (``add`` says it stored, as Django's dummy cache)."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        options = {**SOCKET_OPTIONS, **(params.get("OPTIONS") or {})}
        super().__init__(server, {**params, "OPTIONS": options})
        self._outage = Outage.of(self._servers[0])

    def _redis(self, if_down: T, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)``'s answer, or ``if_down`` when Redis does not give one."""
        if self._outage.skip():
            return if_down
        try:
            answer = call(*args)
        except RedisError as error:
            self._outage.failed(error)
            return if_down
        self._outage.answered()
        return answer

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        return self._redis(True, super().add, key, value, timeout, version)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._redis(default, super().get, key, default, version)

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._redis(None, super().set, key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._redis(False, super().touch, key, timeout, version)

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._redis(False, super().delete, key, version)

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._redis({}, super().get_many, keys, version)

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._redis(False, super().has_key, key, version)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        answer = self._redis(None, super().incr, key, delta, version)
        if answer is None:
            raise ValueError(f"Key '{key}' not found.")  # as for any key the cache has not
        return answer

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        return self._redis([], super().set_many, data, timeout, version)

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._redis(None, super().delete_many, keys, version)

    def clear(self) -> None:
        self._redis(None, super().clear)


class SessionCache(RedisCache):
    """The sessions' copies (``cached_db`` sessions; the database keeps them all): none kept
    past the cache's ``TIMEOUT``, so that a sign-out made while Redis was unreachable is not
    undone for long by Redis coming back with its memory."""

    def get_backend_timeout(self, timeout: Any = DEFAULT_TIMEOUT) -> Any:
        if timeout is DEFAULT_TIMEOUT or timeout is None or timeout > self.default_timeout:
            timeout = self.default_timeout
        return super().get_backend_timeout(timeout)
