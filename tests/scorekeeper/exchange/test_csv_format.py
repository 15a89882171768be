"""``exchange.csv_format``: the app's CSV written in the reader's convention and read back."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from scorekeeper.exchange import csv_format, csv_read, exports
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.tarot import TarotDeal
from tests.scorekeeper.season_factories import World, deal, make_world, passed, play_evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    return make_world(names=("Ana", "Ben", "Chloé", "Dan"))


def evening(world: World):
    p = world.players
    table = [p["Ana"], p["Ben"], p["Chloé"], p["Dan"]]
    return play_evening(
        world,
        dt.date(2025, 3, 14),
        table,
        [
            deal(table, p["Ana"], "garde", 2, 45.5, petit_au_bout="attack"),
            passed(table),
            deal(table, p["Ben"], "petite", 1, 40, chelem="unannounced"),
        ],
        place="Chez Zoé",
    )


@pytest.mark.parametrize(("language", "separator", "mark"), [("fr", ";", ","), ("en", ",", ".")])
def test_the_csv_is_written_in_the_readers_convention(
    world: World, language: str, separator: str, mark: str
) -> None:
    with translation.override(language):
        text = exports.evening_csv(evening(world))
    header, first = text.removeprefix(csv_format.BOM).splitlines()[:2]
    assert header.count(separator) == len(csv_format.COLUMNS) + 3
    assert f"45{mark}5" in first


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
def test_a_written_csv_reads_back_as_the_same_deals(world: World, language: str) -> None:
    with translation.override(language):
        text = exports.evening_csv(evening(world))
    with translation.override("en"):  # read in another language than it was written in
        (entry,) = csv_read.csv_entries(text)
    assert entry.date == dt.date(2025, 3, 14) and entry.place == "Chez Zoé"
    assert entry.sheet.players == ("Ana", "Ben", "Chloé", "Dan")
    first, _passed, third = entry.sheet.deals
    assert isinstance(first, TarotDeal)
    assert (first.taker, str(first.contract.value), first.points) == ("Ana", "garde", 45.5)
    assert first.petit_au_bout == "attack"
    assert third.chelem == "unannounced"


@pytest.mark.parametrize(
    ("header", "expected"),
    [("a;b;c,d", ";"), ("a,b,c;d", ","), ("a,b", ","), ("a;b", ";"), ("", ",")],
)
def test_the_separator_is_the_one_the_header_row_uses_most(header: str, expected: str) -> None:
    assert csv_read._sniff(header + "\n1;2,3") == expected


def test_either_decimal_mark_is_read() -> None:
    assert csv_read._number("45,5", 2, "points") == 45.5
    assert csv_read._number("45.5", 2, "points") == 45.5
    assert csv_read._number("41", 2, "points") == 41


def test_a_cell_a_spreadsheet_would_run_as_a_formula_is_written_quoted_and_read_back() -> None:
    assert csv_format._cell("=SUM(A1)") == "'=SUM(A1)"
    assert csv_format.uncell("'=SUM(A1)") == "=SUM(A1)"
    assert csv_format.uncell("'plain") == "'plain"


def test_a_csv_without_the_date_column_is_refused_naming_the_columns() -> None:
    with pytest.raises(ScoringError) as caught:
        csv_read.csv_entries("Ana,Ben\n1,2\n")
    assert caught.value.code == "csv_header"


def test_every_word_of_the_csv_is_in_the_readers_language(world: World) -> None:
    with translation.override("fr"):
        text = exports.evening_csv(evening(world))
    rows = [line.split(";") for line in text.removeprefix(csv_format.BOM).splitlines()]
    column = {key: index for index, key in enumerate(csv_format.COLUMNS)}
    first, _passed, third = rows[1:]
    assert first[column["contract"]] == "Garde"
    assert first[column["petit_au_bout"]] == "Attaque"  # not "attack"
    assert third[column["chelem"]] == "Réussi sans annonce"  # not "unannounced"
    for row in rows[1:]:
        for key in ("petit_au_bout", "chelem"):
            assert row[column[key]] not in ("attack", "defense", "unannounced", "announced")


def test_the_codes_of_the_deal_sheet_still_read_in_a_csv(world: World) -> None:
    with translation.override("en"):
        text = exports.evening_csv(evening(world))
    text = text.replace("Made, not announced", "unannounced").replace(",Attack,", ",attack,")
    (entry,) = csv_read.csv_entries(text)
    assert entry.sheet.deals[0].petit_au_bout == "attack"
    assert entry.sheet.deals[2].chelem == "unannounced"


def test_a_second_games_deals_are_numbered_as_on_the_evenings_page(world: World) -> None:
    from scorekeeper import services

    first = evening(world)
    p = world.players
    table = [p["Ana"], p["Ben"], p["Chloé"], p["Dan"]]
    services.evening_reopen(evening=first)
    game = services.game_start(evening=first, players=table, first_dealer=p["Ana"])
    for inputs in (
        deal(table, p["Dan"], "garde", 2, 50),
        deal(table, p["Chloé"], "petite", 1, 44),
    ):
        services.deal_record(game=game, inputs=inputs)
    with translation.override("en"):
        text = exports.evening_csv(first)
    rows = [line.split(",") for line in text.removeprefix(csv_format.BOM).splitlines()[1:]]
    assert [(row[2], row[3]) for row in rows] == [
        ("1", "1"),
        ("1", "2"),
        ("1", "3"),
        ("2", "1"),
        ("2", "2"),
    ]
    assert list(game.deals.order_by("number").values_list("number", flat=True)) == [1, 2]
