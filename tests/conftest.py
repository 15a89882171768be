from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache

from scorekeeper.server import shared_cache


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Each test starts with nothing cached (database ids repeat from test to test)."""
    cache.clear()
    shared_cache.forget_local()
    yield
    cache.clear()
    shared_cache.forget_local()
