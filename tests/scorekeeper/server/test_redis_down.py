"""The shared cache while Redis refuses connections: it answers as an empty cache (a read
misses, a write does nothing), says so once in the log, and only tries Redis again every
``RETRY_SECONDS``. No Redis is needed: nothing listens on the port these caches use."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from scorekeeper.server import redis_cache
from scorekeeper.server.redis_cache import Outage, RedisCache
from tools.bench.local_servers import free_port

LOGGER = "scorekeeper.server.redis_cache"


@pytest.fixture(autouse=True)
def _no_outage_known() -> Iterator[None]:
    Outage.every.clear()
    yield
    Outage.every.clear()


@pytest.fixture
def refused() -> str:
    return f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there


def _tries(cache: RedisCache) -> list[bool]:
    """Counts the times ``cache`` reaches for a Redis client (one per call that tries)."""
    tries: list[bool] = []
    client = cache._cache
    get_client = client.get_client

    def counted(*args: object, **kwargs: object) -> object:
        tries.append(True)
        return get_client(*args, **kwargs)

    client.get_client = counted  # type: ignore[method-assign]
    return tries


def _records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == LOGGER]


def test_a_read_misses_and_a_write_does_nothing_when_redis_refuses(refused: str) -> None:
    cache = RedisCache(refused, {"TIMEOUT": 60})
    assert cache.get("sheet") is None
    assert cache.get("sheet", "drawn from the database") == "drawn from the database"
    assert cache.get_many(["a", "b"]) == {}
    assert cache.has_key("sheet") is False
    assert cache.set("sheet", "<table>") is None
    assert cache.set_many({"a": 1, "b": 2}) == []
    assert cache.delete("sheet") is False
    assert cache.delete_many(["a", "b"]) is None
    assert cache.touch("sheet") is False
    assert cache.clear() is None
    assert cache.add("lock", 1) is True  # as Django's dummy cache: the caller goes on
    assert cache.get_or_set("season", lambda: "summed") == "summed"
    with pytest.raises(ValueError, match="not found"):  # as for a key the cache has not
        cache.incr("count")


def test_the_log_says_once_that_redis_is_down_without_a_traceback(
    refused: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_cache, "RETRY_SECONDS", 0.0)  # every call tries Redis again
    first, second = RedisCache(refused, {}), RedisCache(refused, {})  # one Redis, two caches
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        for _call in range(20):
            first.get("sheet")
            second.set("row", "<tr>")
    records = _records(caplog)
    assert len(records) == 1
    assert records[0].levelno == logging.ERROR and records[0].exc_info is None
    message = records[0].getMessage()
    assert f"Redis at {refused.removeprefix('redis://').removesuffix('/0')} is down" in message
    assert "Connection refused" in message and "\n" not in message


def test_while_down_only_one_call_every_few_seconds_tries_redis(
    refused: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]
    monkeypatch.setattr(redis_cache.time, "monotonic", lambda: now[0])
    cache = RedisCache(refused, {})
    tries = _tries(cache)
    cache.get("sheet")
    assert len(tries) == 1
    for _call in range(50):
        cache.get("sheet")
        cache.set("sheet", "<table>")
    assert len(tries) == 1  # skipped: no connection tried
    now[0] += redis_cache.RETRY_SECONDS
    cache.get("sheet")
    cache.get("sheet")
    assert len(tries) == 2  # one tries again, the next waits for the next turn


def test_the_log_says_when_redis_answers_again(
    refused: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(redis_cache, "RETRY_SECONDS", 0.0)
    cache = RedisCache(refused, {})
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        cache.get("sheet")
        monkeypatch.setattr(cache._cache, "get", lambda key, default: "<table>")  # Redis is back
        assert cache.get("sheet") == "<table>"
        assert cache.get("sheet") == "<table>"
    down, back = _records(caplog)
    assert "is down" in down.getMessage()
    assert back.levelno == logging.WARNING
    assert back.getMessage().endswith("is back: the cache is on again")


def test_a_dead_redis_costs_milliseconds_not_the_default_wait_forever(refused: str) -> None:
    pool = RedisCache(refused, {})._cache._get_connection_pool(write=False)
    assert pool.connection_kwargs["socket_connect_timeout"] <= 0.25
    assert pool.connection_kwargs["socket_timeout"] <= 1
    own = RedisCache(refused, {"OPTIONS": {"socket_timeout": 3}})._cache
    assert own._get_connection_pool(write=False).connection_kwargs["socket_timeout"] == 3
