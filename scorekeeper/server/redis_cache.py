"""Django's Redis cache with one client per connection pool, kept for the process.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` around its pool for every cache
call, and building one (its table of reply callbacks) cost about as much as the call itself:
a tenth of a millisecond, several times a request, on the poll most phones send every few
seconds. A ``redis.Redis`` is safe to share between threads (each command takes a
connection from the pool), and the pool itself starts afresh in a forked worker.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


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
