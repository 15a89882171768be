"""Every CSV the app writes goes through one writer, which keeps a formula as text.

Round three's probe: the tournament's results.csv let ``=HYPERLINK(…)``, ``+cmd|…`` and
``@SUM(1+1)`` through, where the evening's CSV put an apostrophe before them; and it used
``,`` where the app's other CSV files use the reader's convention (``;`` in French).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper import services
from scorekeeper.exchange import csv_format, exports
from scorekeeper.exchange.game_data import CSV_CONTENT_TYPE
from scorekeeper.exchange.tournament_csv import results_csv
from scorekeeper.models import Player, Season
from scorekeeper.reads.tournaments import ranking
from tests.scorekeeper.season_factories import make_world, passed, play_evening
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db

HOSTILE = (
    '=HYPERLINK("https://e.vil/","Click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3+cmd|' /C notepad'!A0",
)
FORMULA = tuple("=+-@\t\r")


def cells(text: str) -> list[list[str]]:
    assert text.startswith(csv_format.BOM)
    separator = ";" if translation.get_language() == "fr" else ","
    return list(csv.reader(io.StringIO(text.removeprefix(csv_format.BOM)), delimiter=separator))


def assert_no_formula(rows: list[list[str]]) -> None:
    """No cell starts as a formula (a negative number is a number, not text)."""
    for row in rows:
        for cell in row:
            if cell.startswith(FORMULA):
                assert cell.lstrip("-").isdigit(), f"{cell!r} would run as a formula"


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_evening_and_season_csv_keep_hostile_names_and_places_as_text(language: str) -> None:
    world = make_world(names=HOSTILE)
    table = list(world.players.values())
    evening = play_evening(world, dt.date(2025, 1, 10), table, [passed(table)], place="=1+1")
    season = Season.objects.get(club=world.club)  # the year's, made with the evening
    with translation.override(language):
        for text in (exports.evening_csv(evening), exports.season_csv(season)):
            rows = cells(text)
            assert_no_formula(rows)
            assert sorted(rows[0][-4:]) == sorted("'" + name for name in HOSTILE)
            assert rows[1][1] == "'=1+1"


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_tournament_results_keep_hostile_names_as_text(language: str) -> None:
    _club, players, tournament = make_tournament(4, rounds=1)
    for player, name in zip(players, HOSTILE, strict=True):
        Player.objects.filter(pk=player.pk).update(name=name)
    services.round_start(tournament=tournament, created_by=tournament.created_by)
    with translation.override(language):
        rows = cells(results_csv(ranking(tournament)))
    assert_no_formula(rows)
    assert sorted(row[1] for row in rows[1:]) == sorted("'" + name for name in HOSTILE)


def test_the_tournament_csv_downloads_in_the_apps_format(client: Client) -> None:
    _club, _players, tournament = make_tournament(4, rounds=1)
    services.round_start(tournament=tournament, created_by=tournament.created_by)
    client.force_login(tournament.created_by)
    answer = client.get(reverse("tournament_csv", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert answer["Content-Type"] == CSV_CONTENT_TYPE
    text = answer.content.decode("utf-8")
    assert text.startswith(csv_format.BOM)
    header = text.removeprefix(csv_format.BOM).split("\r\n")[0]
    assert header == "Rang;Joueur;Licence;Total;Rondes gagnées;Meilleure ronde"  # no round yet


def test_the_paper_template_is_written_by_the_same_writer() -> None:
    with translation.override("fr"):
        rows = cells(csv_format.paper_template())
    assert rows[1][-4:] == ["90", "-30", "-30", "-30"]


def test_no_module_but_the_one_writer_makes_a_csv_writer() -> None:
    package = Path(csv_format.__file__).resolve().parents[1]
    writers = [
        str(path.relative_to(package.parent))
        for path in package.rglob("*.py")
        if "csv.writer(" in path.read_text(encoding="utf-8")
    ]
    assert writers == ["scorekeeper/exchange/csv_format.py"]
