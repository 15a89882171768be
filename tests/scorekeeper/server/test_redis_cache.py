"""The shared cache works as Django's while Redis answers. Needs a Redis: .ci/run's
PostgreSQL pass starts one and sets REDIS_URL."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from scorekeeper.server.redis_cache import RedisCache

REDIS_URL = os.environ.get("REDIS_URL", "")

pytestmark = pytest.mark.skipif(
    not REDIS_URL, reason="needs Redis (the PostgreSQL pass of .ci/run sets REDIS_URL)"
)


@pytest.fixture
def redis_cache() -> Iterator[RedisCache]:
    cache = RedisCache(REDIS_URL, {"KEY_PREFIX": "test-redis-cache", "TIMEOUT": 60})
    yield cache
    cache.delete_many(["a", "b", "n"])


def test_it_stores_and_reads_as_djangos_redis_cache_does(redis_cache: RedisCache) -> None:
    redis_cache.set("a", {"deal": 13, "scores": [1, -1]})
    assert redis_cache.get("a") == {"deal": 13, "scores": [1, -1]}
    assert redis_cache.add("b", 1) is True
    assert redis_cache.add("b", 2) is False
    assert redis_cache.get_many(["a", "b"]) == {"a": {"deal": 13, "scores": [1, -1]}, "b": 1}
    redis_cache.set("n", 1)
    assert redis_cache.incr("n") == 2
