"""Django's Redis cache with one client per connection pool, kept for the process; and the
templates' fragment cache, Redis with a copy in each process (``FragmentCache``).

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` around its pool for every cache
call, and building one (its table of reply callbacks) cost about as much as the call itself:
a tenth of a millisecond, several times a request, on the poll most phones send every few
seconds. A ``redis.Redis`` is safe to share between threads (each command takes a
connection from the pool), and the pool itself starts afresh in a forked worker.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from django.core.cache.backends import redis as django_redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT

from scorekeeper.server.shared_cache import LocalMemo


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
    """``django.core.cache.backends.redis.RedisCache`` with the client above."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient


KEPT_SECONDS = 3600  # a copy read from Redis, at most (it is only memory: keys name content)


class _Kept:
    """The fragments this process kept: least recently used out past ``budget`` characters,
    each until its own expiry."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self.data: OrderedDict[str, tuple[float, Any, int]] = OrderedDict()
        self.lock = threading.Lock()
        LocalMemo.every.append(self)  # type: ignore[arg-type]  # forget_local() clears it

    def get(self, key: str) -> Any:
        with self.lock:
            found = self.data.get(key)
            if found is None:
                return None
            if found[0] <= time.monotonic():
                self._drop(key)
                return None
            self.data.move_to_end(key)
            return found[1]

    def set(self, key: str, value: Any, seconds: float) -> None:
        size = len(value) if isinstance(value, str | bytes) else 1
        if seconds <= 0 or size > self.budget // 8:
            self.delete(key)
            return
        with self.lock:
            self._drop(key)
            self.data[key] = (time.monotonic() + seconds, value, size)
            self.size += size
            while self.size > self.budget:
                self._drop(next(iter(self.data)))

    def delete(self, key: str) -> None:
        with self.lock:
            self._drop(key)

    def clear(self) -> None:
        with self.lock:
            self.data.clear()
            self.size = 0

    def _drop(self, key: str) -> None:
        found = self.data.pop(key, None)
        if found is not None:
            self.size -= found[2]


class FragmentCache(RedisCache):
    """The templates' ``{% cache %}`` fragments (the ``template_fragments`` cache): in Redis
    for every worker, and a copy in this process, read first.

    Every fragment's key names what it shows (an evening's version, a digest of figures),
    so a copy is never stale; it saves a round trip to Redis per fragment, several per
    page, each dearer than the lookup (OPTIONS ``LOCAL_BUDGET``: characters kept, 32 M).
    """

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        budget = int(options.pop("LOCAL_BUDGET", 32_000_000))
        super().__init__(server, {**params, "OPTIONS": options})
        self._kept = _Kept(budget)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        name = self.make_and_validate_key(key, version=version)
        value = self._kept.get(name)
        if value is not None:
            return value
        value = super().get(key, None, version)
        if value is None:
            return default
        self._kept.set(name, value, KEPT_SECONDS)  # named by its content: never stale
        return value

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        super().set(key, value, timeout, version)
        seconds = self.get_backend_timeout(timeout)
        name = self.make_and_validate_key(key, version=version)
        self._kept.set(name, value, 365 * 86400 if seconds is None else seconds)

    def delete(self, key: Any, version: Any = None) -> bool:
        self._kept.delete(self.make_and_validate_key(key, version=version))
        return super().delete(key, version)

    def clear(self) -> None:
        self._kept.clear()
        super().clear()
