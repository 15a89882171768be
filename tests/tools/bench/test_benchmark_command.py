"""`manage.py benchmark` runs on a small synthetic club and writes its figures as JSON."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.db import connections

from accounts.models import User

PAGES = [
    "evening page (50 deals)",
    "live poll, nothing changed",
    "deal preview",
    "season standings",
    "player page",
    "counter update",
    "season, first view after a restart",
    "deal save",
    "season standings after a save",
    "rating page",
    "head to head page",
    "records page",
    "contracts page",
    "rating page after a save",
    "head to head page after a save",
    "records page after a save",
]


@pytest.mark.django_db
def test_the_benchmark_times_every_page_in_a_throwaway_database(tmp_path: Path) -> None:
    before = connections["default"].settings_dict["NAME"]
    users = User.objects.count()
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "bench.json"
    call_command(
        "benchmark", "--deals", "100", "--repeat", "2", "--json", str(path), stdout=out, stderr=err
    )
    data = json.loads(path.read_text())
    assert set(data) >= {"deals", "bare_ms", "minimal_ms", "pages"}
    assert data["deals"] == 100
    assert data["bare_ms"] > 0 and data["minimal_ms"] > 0
    assert [page["name"] for page in data["pages"]] == PAGES
    for page in data["pages"]:
        assert set(page) == {"name", "median_ms", "ratio", "minimal_ms", "queries"}
        assert page["median_ms"] > 0
        # Each row against the minimal page timed in its own turns.
        assert page["minimal_ms"] > 0
        # Both figures are rounded to 3 decimals: the ratio of the fast live poll is a few
        # hundredths, where half a unit of the last decimal is already 3 % of it.
        expected = page["median_ms"] / page["minimal_ms"]
        assert page["ratio"] == pytest.approx(expected, rel=0.02, abs=0.001)
        assert isinstance(page["queries"], int)
        assert page["queries"] > 0 or page["name"] == "counter update"  # a public page
    sheet, archive = data["imports"]
    assert sheet["name"] == "import a 100-deal sheet" and sheet["deals"] == 100
    assert archive["name"] == f"import a {archive['deals']}-deal archive"
    assert archive["deals"] >= 100  # the synthetic club, with the deals the save timing added
    assert all(row["seconds"] > 0 for row in data["imports"])
    assert data["replay"]["name"] == "rating after correcting an old deal"
    assert any("synthetic club" in note and "beats the base rate" in note for note in data["notes"])
    table = out.getvalue()
    assert "median ms" in table and "season standings" in table and "minimal page" in table
    # The project's database (here, the test database) is as it was, and in use again.
    assert connections["default"].settings_dict["NAME"] == before
    assert User.objects.count() == users
    assert settings.ROOT_URLCONF == "scorekeeper.urls"
    cache.clear()
