"""Values named by what they were built from, kept in the shared cache and, in front of it,
in a small memory of the process.

A key here names its content (a season's fingerprint, a digest of its figures): whatever
process built the value, every process would build the same. So a process may keep a copy
without ever being wrong, and a process that has none (a restart, another worker, another
machine) reads it from the shared cache (Redis when ``REDIS_URL`` is set) instead of building
it again. Only the cache read is saved by the local copy: unpickling a season's figures.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from django.core.cache import cache

T = TypeVar("T")


class LocalMemo:
    """A small least-recently-used map of this process, shared by its threads. Only for
    values whose key names their content (a version, a digest): a copy is never stale."""

    every: list[LocalMemo] = []

    def __init__(self, size: int) -> None:
        self.size = size
        self.data: OrderedDict[Hashable, Any] = OrderedDict()
        self.lock = threading.Lock()
        LocalMemo.every.append(self)

    def get(self, key: Hashable) -> Any:
        with self.lock:
            value = self.data.get(key)
            if value is not None:
                self.data.move_to_end(key)
            return value

    def set(self, key: Hashable, value: Any) -> None:
        with self.lock:
            self.data[key] = value
            self.data.move_to_end(key)
            while len(self.data) > self.size:
                self.data.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.data.clear()


_local = LocalMemo(256)


def get_or_build(key: str, build: Callable[[], T], seconds: int, *, memo: LocalMemo = _local) -> T:
    """The value under ``key``: this process's copy (in ``memo``), else the shared cache's,
    else built."""
    value = memo.get(key)
    if value is not None:
        return value
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, seconds)
    memo.set(key, value)
    return value


def forget_local() -> None:
    """Drop this process's copies, as a restart would (tests, the benchmark)."""
    for memo in LocalMemo.every:
        memo.clear()
