"""Values named by what they were built from, kept in the shared cache and, in front of it,
in a small memory of the process.

A key here names its content (a season's fingerprint, a digest of its figures): whatever
process built the value, every process would build the same. So a process may keep a copy
without ever being wrong, and a process that has none (a restart, another worker, another
machine) reads it from the shared cache (Redis when ``REDIS_URL`` is set) instead of building
it again. Only the cache read is saved by the local copy: unpickling a season's figures.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from django.core.cache import cache

T = TypeVar("T")

#: How long what is read of tonight's evenings (their version changes with every deal saved)
#: stays in the shared cache: a few deals' time, for the process that looks next.
TONIGHT_SECONDS = 600


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


def peek(key: str, *, memo: LocalMemo = _local) -> Any:
    """The value under ``key`` (this process's copy, else the shared cache's), or None."""
    value = memo.get(key)
    if value is None:
        value = cache.get(key)
        if value is not None:
            memo.set(key, value)
    return value


def peek_many(keys: list[str], *, memo: LocalMemo = _local) -> dict[str, Any]:
    """The values found under ``keys`` (this process's copies, else the shared cache's: one
    round trip for all those missing here); a key with no value is left out."""
    found: dict[str, Any] = {}
    missing = []
    for key in keys:
        value = memo.get(key)
        if value is None:
            missing.append(key)
        else:
            found[key] = value
    if missing:
        for key, value in cache.get_many(missing).items():
            memo.set(key, value)
            found[key] = value
    return found


def shared_many(keys: list[str]) -> dict[str, Any]:
    """The values the shared cache holds under ``keys`` (one round trip), none kept here: for
    a caller that keeps its copies under keys of its own."""
    return cache.get_many(keys) if keys else {}


def share_many(values: dict[str, Any], seconds: int) -> None:
    """Put ``values`` in the shared cache (one round trip), for the other processes."""
    if values:
        cache.set_many(values, seconds)


def keep(
    key: str, value: Any, seconds: int, *, shared: bool = True, memo: LocalMemo = _local
) -> None:
    """Keep ``value`` under ``key`` in this process (in ``memo``) and, unless ``shared`` is
    False (a value any process builds again in less time than it takes to fetch), in the
    shared cache."""
    if shared:
        cache.set(key, value, seconds)
    memo.set(key, value)


def name_for(prefix: str, key: Hashable) -> str:
    """A cache key for a value named by what it was built from: ``prefix`` and a digest of
    ``key``'s ``repr`` (short, and safe for every cache backend)."""
    return f"{prefix}.{hashlib.sha1(repr(key).encode(), usedforsecurity=False).hexdigest()}"


def forget_local() -> None:
    """Drop this process's copies, as a restart would (tests, the benchmark)."""
    for memo in LocalMemo.every:
        memo.clear()
