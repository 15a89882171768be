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
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache

T = TypeVar("T")

LOCAL_SIZE = 256
_local: OrderedDict[str, Any] = OrderedDict()
_lock = threading.Lock()


def _remember(key: str, value: Any) -> None:
    with _lock:
        _local[key] = value
        _local.move_to_end(key)
        while len(_local) > LOCAL_SIZE:
            _local.popitem(last=False)


def get_or_build(key: str, build: Callable[[], T], seconds: int) -> T:
    """The value under ``key``: this process's copy, else the shared cache's, else built."""
    with _lock:
        value = _local.get(key)
        if value is not None:
            _local.move_to_end(key)
            return value
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, seconds)
    _remember(key, value)
    return value


def forget_local() -> None:
    """Drop this process's copies, as a restart would (tests, the benchmark)."""
    with _lock:
        _local.clear()
