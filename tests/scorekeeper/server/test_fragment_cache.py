"""The templates' fragment cache: Redis for every worker, and a copy in each process read
first (fragments are named by their content, so a copy is never stale)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from scorekeeper.server import redis_cache, shared_cache
from scorekeeper.server.redis_cache import FragmentCache, _Kept

REDIS_URL = os.environ.get("REDIS_URL", "")
needs_redis = pytest.mark.skipif(
    not REDIS_URL, reason="needs Redis (the PostgreSQL pass of .ci/run sets REDIS_URL)"
)


def test_a_kept_copy_is_read_back_until_its_end(monkeypatch) -> None:
    kept = _Kept(1000)
    kept.set("sheet", "<table>", 60)
    assert kept.get("sheet") == "<table>"
    later = redis_cache.time.monotonic() + 61
    monkeypatch.setattr(redis_cache.time, "monotonic", lambda: later)
    assert kept.get("sheet") is None
    assert kept.size == 0


def test_past_its_budget_the_least_recently_read_copy_goes() -> None:
    kept = _Kept(800)  # eight copies of 100 characters
    names = "abcdefgh"
    for name in names:
        kept.set(name, name * 100, 60)
    assert kept.get("a") == "a" * 100  # read: now the most recent
    kept.set("i", "i" * 100, 60)
    assert kept.get("b") is None
    assert all(kept.get(name) == name * 100 for name in "acdefghi")
    assert kept.size == 800


def test_a_copy_too_big_or_meant_to_expire_at_once_is_not_kept() -> None:
    kept = _Kept(800)
    kept.set("big", "x" * 101, 60)
    kept.set("now", "x", 0)
    assert kept.get("big") is None and kept.get("now") is None
    assert kept.size == 0


def test_a_restart_forgets_the_copies() -> None:
    kept = _Kept(1000)
    kept.set("sheet", "<table>", 60)
    shared_cache.forget_local()
    assert kept.get("sheet") is None


@pytest.fixture
def two_workers() -> Iterator[tuple[FragmentCache, FragmentCache]]:
    params = {"KEY_PREFIX": "test-fragment-cache", "TIMEOUT": 60}
    first, second = FragmentCache(REDIS_URL, params), FragmentCache(REDIS_URL, params)
    yield first, second
    first.delete("sheet")


@needs_redis
def test_a_fragment_drawn_by_one_worker_is_read_by_another_from_redis_once(
    two_workers: tuple[FragmentCache, FragmentCache],
) -> None:
    first, second = two_workers
    first.set("sheet", "<table>1</table>", 600)
    assert second.get("sheet") == "<table>1</table>"
    first._cache.delete(first.make_and_validate_key("sheet"))  # gone from Redis...
    assert second.get("sheet") == "<table>1</table>"  # ...the copy answers
    assert first.get("sheet") == "<table>1</table>"
    first.delete("sheet")
    assert first.get("sheet") is None
