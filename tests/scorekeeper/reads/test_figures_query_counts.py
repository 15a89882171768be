"""The club figures pages make as many queries with a big club as with a small one."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.scorekeeper.reads.test_query_counts import SIZES, grow
from tests.scorekeeper.season_factories import World

pytestmark = pytest.mark.django_db

PAGES = ("ratings", "head-to-head", "records", "contracts")


def _counts(world: World, client: Client) -> dict[str, int]:
    """Per page: queries once the settled evenings are stored (a checkpoint), as on any view
    but the first after a change to an old evening."""
    client.force_login(world.member)
    counts = {}
    for page in PAGES:
        url = f"/clubs/{world.club.pk}/{page}/"
        assert client.get(url, {"season": "all"}).status_code == 200
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url, {"season": "all"}).status_code == 200
        counts[page] = len(captured.captured_queries)
    return counts


# Per page: session (read from Redis when REDIS_URL sets cached sessions), the membership with
# its account, seasons; the evenings at their versions (the page's fragment is cached under
# their digest: nothing folded, no deal read, no name: a rename raises the evenings).
SESSION_QUERIES = 0 if settings.SESSION_ENGINE.endswith("cached_db") else 1
EXPECTED = dict.fromkeys(PAGES, 3 + SESSION_QUERIES)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_figures_pages_make_the_same_queries_at_every_size(client: Client, size: str):
    counts = _counts(grow(*SIZES[size]), client)
    assert counts == EXPECTED
