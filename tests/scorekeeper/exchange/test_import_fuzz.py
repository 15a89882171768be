"""Whatever the file, an import either reads it or refuses it with a ScoringError: never
another exception (a 500 on the page)."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.exchange import archives, exports
from scorekeeper.models import Club

pytestmark = pytest.mark.django_db

CSV_HEADER = "Evening date;Place;Game;Deal;Kind;Dealer;Taker;Partner;Contract;Bouts;Points;"
CSV_HEADER += "Petit au bout;Poignées;Chelem;Stakes;Result;Ana;Ben;Chloé\r\n"
cells = st.one_of(
    st.sampled_from(["", "2025-01-01", "tarot", "paper", "escopette 50", "Ana", "garde", "45,5"]),
    st.sampled_from(["-", "0", "1", "91", "x", "20:Ana 12:Ben", "attack", "simple", "\x00"]),
    st.text(max_size=6),
)
rows = st.lists(st.lists(cells, max_size=20).map(";".join), max_size=5)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows)
def test_any_csv_is_read_or_refused(lines: list[str]) -> None:
    try:
        entries = exports.read_import(CSV_HEADER + "\r\n".join(lines))
    except exports.ImportRefused:
        return
    club = Club.objects.create(name="Fuzz")
    with contextlib.suppress(exports.ImportRefused):
        exports.import_entries(club=club, entries=entries, created_by=None)


ARCHIVE = {
    "format": "scorekeeper-club-archive",
    "version": 1,
    "club": {"name": "C"},
    "members": [{"email": "a@b.example", "role": "owner"}],
    "players": [{"name": "Ana"}, {"name": "Ben"}, {"name": "Chloé"}],
    "seasons": [{"name": "2025", "start": "2025-01-01", "end": "2025-12-31"}],
    "evenings": [
        {
            "date": "2025-01-02",
            "place": "",
            "games": [
                {
                    "kind": "tarot",
                    "first_dealer": "Ana",
                    "seats": [{"player": "Ana"}, {"player": "Ben"}, {"player": "Chloé"}],
                    "deals": [
                        {
                            "dealer": "Ana",
                            "taker": "Ben",
                            "contract": "garde",
                            "bouts": 1,
                            "points": 50,
                        }
                    ],
                }
            ],
        }
    ],
}
PATHS = [
    ("club",), ("members", 0), ("members", 0, "email"), ("players", 0), ("players", 0, "name"),
    ("seasons", 0, "start"), ("evenings", 0), ("evenings", 0, "date"), ("evenings", 0, "games", 0),
    ("evenings", 0, "games", 0, "seats"), ("evenings", 0, "games", 0, "kind"),
    ("evenings", 0, "games", 0, "deals", 0), ("evenings", 0, "games", 0, "deals", 0, "dealer"),
    ("evenings", 0, "games", 0, "deals", 0, "absent"), ("evenings", 0, "games", 0, "five_mode"),
    ("evenings", 0, "closed_at"), ("evenings", 0, "games", 0, "first_dealer"),
]  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS), json_values)
def test_any_archive_is_read_or_refused(path: tuple, value: object) -> None:
    data = json.loads(json.dumps(ARCHIVE))
    where = data
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    try:
        archive = archives.read_archive(json.dumps(data))
    except archives.ScoringError:
        return
    archives.archive_import(archive=archive, owner=None, restore_members=True)
