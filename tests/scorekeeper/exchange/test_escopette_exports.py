"""A season with L'escopette goes out as a sheet and a CSV and comes back with the same
standings."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from scorekeeper.exchange import exports, sheet_import
from scorekeeper.models import Season
from scorekeeper.models.figures import ESCOPETTE, TAROT
from tests.scorekeeper.escopette_season import (
    DEALS,
    EXPECTED,
    escopette_world,
    figures,
    season_2025,
    tarot,
)
from tests.scorekeeper.reads.test_standings import EXPECTED as TAROT_EXPECTED
from tests.scorekeeper.season_factories import (
    World,
    for_season_by_kind,
    fresh_memory,
    make_world,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    yield from fresh_memory()


@pytest.fixture
def world() -> World:
    return escopette_world()


# --- Exports and imports --------------------------------------------------------------------


def test_a_season_with_lescopette_goes_out_and_back_in_with_the_same_standings(
    world: World,
) -> None:
    season = season_2025(world)
    data = json.loads(exports.season_json(season))
    games = [(e["date"], e["game"], e["sheet"]["game"]) for e in data["evenings"]]
    assert games == [
        ("2025-01-10", 1, "tarot"),
        ("2025-02-07", 1, "tarot"),
        ("2025-02-07", 2, "escopette"),
        ("2025-03-01", 1, "escopette"),
        ("2025-04-04", 1, "escopette"),
        ("2025-04-04", 2, "escopette"),
    ]
    assert {e["sheet"].get("target") for e in data["evenings"][2:]} == {50, 100}
    csv_text = exports.season_csv(season)
    assert len(csv_text.strip().splitlines()) == 1 + 6 + DEALS  # a row per deal, both games
    other = make_world(club="Club B")
    evenings = sheet_import.import_entries(
        club=other.club, entries=sheet_import.read_import(json.dumps(data)), created_by=None
    )
    kinds = [[g.kind for g in e.games.order_by("number")] for e in evenings]
    assert kinds == [["tarot"], ["tarot", "escopette"], ["escopette"], ["escopette", "escopette"]]
    again = Season.objects.get(club=other.club, name="2025")
    assert figures(for_season_by_kind(again)[ESCOPETTE].rows) == EXPECTED
    # Each evening comes back with its games; the French Tarot figures stay the same.
    assert tarot(for_season_by_kind(again)[TAROT].rows) == TAROT_EXPECTED
