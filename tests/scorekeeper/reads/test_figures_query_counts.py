"""The club figures pages make as many queries with a big club as with a small one."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.server import shared_cache
from tests.scorekeeper.reads.test_query_counts import SIZES, grow
from tests.scorekeeper.season_factories import World

pytestmark = pytest.mark.django_db

PAGES = ("ratings", "head-to-head", "records", "contracts")


def _counts(world: World, client: Client) -> dict[str, tuple[int, int, int]]:
    """Per page: queries with nothing computed, warm, and in a new process (shared cache)."""
    client.force_login(world.member)
    counts = {}
    for page in PAGES:
        url = f"/clubs/{world.club.pk}/{page}/"
        found = []
        for before in (None, None, shared_cache.forget_local):
            if before:
                before()
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url, {"season": "all"}).status_code == 200
            found.append(len(captured.captured_queries))
        counts[page] = tuple(found)
    return counts


# Per page (first view, again, in a new process with the shared cache). Warm: session, user,
# membership, seasons, fingerprint, names; a new process adds the evenings; the first page
# of all also reads the evenings' deals and their scores. The pages share their figures.
WARM = (6, 6, 7)
EXPECTED = {"ratings": (9, 6, 7), "head-to-head": WARM, "records": WARM, "contracts": WARM}


@pytest.mark.parametrize("size", list(SIZES))
def test_the_figures_pages_make_the_same_queries_at_every_size(client: Client, size: str):
    counts = _counts(grow(*SIZES[size]), client)
    assert counts == EXPECTED
