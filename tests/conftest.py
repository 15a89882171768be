from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Each test starts with nothing cached (database ids repeat from test to test)."""
    cache.clear()
    yield
    cache.clear()
