"""Exports (CSV, the deal sheet JSON) and imports, on the web and by management commands."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from scorekeeper import services
from scorekeeper.exchange import exports, sheet_import
from scorekeeper.exchange.sheet_import import read_import
from scorekeeper.models import DealScore, Evening, Game, Player, Season
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.sheet import load_sheet_text, score_sheet
from tests.scorekeeper.season_factories import (
    World,
    deal,
    escopette_evening,
    hand_computed_season,
    make_world,
    passed,
    play_evening,
)

pytestmark = pytest.mark.django_db


def scores_by_deal(evening: Evening) -> list[dict[str, int]]:
    """Every player's stored score, deal by deal, by name (sitting out: 0)."""
    rows: dict[tuple[int, int], dict[str, int]] = {}
    for score in DealScore.objects.filter(deal__game__evening=evening).select_related(
        "deal__game", "player"
    ):
        key = (score.deal.game.number, score.deal.number)
        rows.setdefault(key, {})[score.player.name] = score.score
    return [rows[key] for key in sorted(rows)]


def six_player_evening(world: World) -> Evening:
    """Six at the table (one sits out each deal), five with a partner, every bonus."""
    p = world.players
    ana, ben, chloe, dan, eve, zed = (p[n] for n in ("Ana", "Ben", "Chloé", "Dan", "Eve", "Zed"))
    table = [ana, ben, chloe, dan, eve, zed]
    return play_evening(
        world,
        dt.date(2025, 4, 18),
        table,
        [
            deal(
                [ben, chloe, dan, eve, zed],
                ben,
                "garde",
                2,
                45.5,
                partner=dan,
                poignees=("simple",),
            ),
            deal(
                [ana, chloe, dan, eve, zed],
                eve,
                "garde_contre",
                1,
                47,
                partner=eve,
                petit_au_bout="attack",
            ),
            passed([ana, ben, dan, eve, zed]),
            deal(
                [ana, ben, chloe, eve, zed],
                zed,
                "garde_sans",
                3,
                91,
                partner=ana,
                petit_au_bout="attack",
                chelem="announced",
            ),
            deal(
                [ana, ben, chloe, dan, zed],
                chloe,
                "petite",
                0,
                30.5,
                partner=chloe,
                poignees=("double", "simple"),
                petit_au_bout="defense",
            ),
        ],
        place="Chez Zoé",
    )


@pytest.fixture
def world() -> World:
    return make_world(names=("Ana", "Ben", "Chloé", "Dan", "Eve", "Zed"))


def test_an_exported_evening_imports_with_the_same_scores_deal_by_deal(world: World) -> None:
    evening = six_player_evening(world)
    text = exports.evening_json(evening)
    other = make_world(names=("ana", "Ben"), club="Club B")  # "ana" is Ana, whatever the case
    (imported,) = sheet_import.import_entries(
        club=other.club, entries=read_import(text), created_by=other.owner, date=evening.date
    )
    assert scores_by_deal(imported)[0].keys() == {"ana", "Ben", "Chloé", "Dan", "Eve", "Zed"}
    original = [{k.lower(): v for k, v in row.items()} for row in scores_by_deal(evening)]
    again = [{k.lower(): v for k, v in row.items()} for row in scores_by_deal(imported)]
    assert again == original
    assert other.club.players.count() == 6  # four new players, two matched
    # The sheet scores the same with score_deals, and says who sat out.
    data = json.loads(text)
    assert data["players"] == ["Ana", "Ben", "Chloé", "Dan", "Eve", "Zed"]
    assert data["deals"][0]["sitting_out"] == ["Ana"]
    totals = score_sheet(load_sheet_text(text))["totals"]
    assert totals == {name: sum(row[name] for row in scores_by_deal(evening)) for name in totals}


def test_a_lone_player_sitting_out_deals_on_import(world: World) -> None:
    evening = six_player_evening(world)
    (imported,) = sheet_import.import_entries(
        club=world.club, entries=read_import(exports.evening_json(evening)), created_by=None
    )
    dealers = list(
        imported.games.get().deals.order_by("number").values_list("dealer__name", flat=True)
    )
    assert dealers == ["Ana", "Ben", "Chloé", "Dan", "Eve"]


def test_an_exported_season_imports_evening_by_evening(world: World) -> None:
    hand_computed_season(world)
    season = Season.objects.get(club=world.club, name="2025")
    data = exports.season_data(season)
    assert data["season"] == "2025" and data["version"] == 2
    assert [(e["date"], e["game"]) for e in data["evenings"]] == [
        ("2025-01-10", 1),
        ("2025-02-07", 1),
        ("2025-03-01", 1),  # L'escopette is in the backup too
    ]
    assert data["evenings"][2]["sheet"]["game"] == "escopette"
    other = make_world(club="Club B")
    evenings = sheet_import.import_entries(
        club=other.club, entries=sheet_import.read_import(json.dumps(data)), created_by=None
    )
    assert [e.date.isoformat() for e in evenings] == ["2025-01-10", "2025-02-07", "2025-03-01"]
    assert evenings[0].place == "Café du Commerce"
    originals = world.club.evenings.filter(date__gte="2025-01-01").order_by("date")
    for original, again in zip(originals, evenings, strict=True):
        assert scores_by_deal(again) == scores_by_deal(original)
    escopette = evenings[2].games.get()
    assert (escopette.kind, escopette.target) == (Game.Kind.ESCOPETTE, 100)


def read_csv(content: bytes) -> list[list[str]]:
    """English convention: commas between cells."""
    assert content.startswith(b"\xef\xbb\xbf")  # the byte order mark spreadsheets look for
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"), newline="")))


P = 16  # the first player column


def test_the_evening_csv_reads_back_a_row_per_deal_and_a_column_per_player(
    world: World, client: Client
) -> None:
    evening = six_player_evening(world)
    client.force_login(world.member)
    response = client.get(f"/evenings/{evening.pk}/export.csv", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="evening-2025-04-18-{evening.pk}.csv"' in response["Content-Disposition"]
    rows = read_csv(response.content)
    header, deals = rows[0], rows[1:]
    assert header == [
        "Evening date", "Place", "Game", "Deal", "Kind", "Dealer", "Taker", "Partner", "Contract",
        "Bouts", "Points", "Petit au bout", "Poignées", "Chelem", "Stakes", "Result",
        "Ana", "Ben", "Chloé", "Dan", "Eve", "Zed",
    ]  # fmt: skip
    assert len(deals) == 5
    assert deals[0][:P] == [
        "2025-04-18", "Chez Zoé", "1", "1", "tarot", "Ana", "Ben", "Dan", "Garde", "2", "45.5",
        "", "simple", "", "", "made by 5",
    ]  # fmt: skip
    assert deals[0][P:] == ["", "160", "-80", "80", "-80", "-80"]  # Ana deals and sits out
    assert deals[2][6:11] == ["", "", "", "", ""]
    assert deals[2][15] == "everyone passed"
    expected = scores_by_deal(evening)
    for row, scores in zip(deals, expected, strict=True):
        shown = {name: int(value) for name, value in zip(header[P:], row[P:], strict=True) if value}
        assert shown == {name: score for name, score in scores.items() if name in shown}
        assert all(scores[name] == 0 for name in scores if name not in shown)


def test_the_season_csv_holds_every_evening_of_the_season(world: World, client: Client) -> None:
    hand_computed_season(world)
    season = Season.objects.get(club=world.club, name="2025")
    client.force_login(world.member)
    response = client.get(
        f"/clubs/{world.club.pk}/seasons/{season.pk}/export.csv", HTTP_ACCEPT_LANGUAGE="en"
    )
    rows = read_csv(response.content)
    assert rows[0][P:] == ["Ana", "Ben", "Chloé", "Dan", "Eve"]  # by name
    dates = [row[0] for row in rows[1:]]
    assert dates == ["2025-01-10"] * 4 + ["2025-02-07"] * 2 + ["2025-03-01"]
    assert [row[3] for row in rows[1:]] == ["1", "2", "3", "4", "1", "2", "1"]
    assert rows[5][P:] == ["160", "80", "-80", "-80", "-80"]
    assert rows[4][P:] == ["-760", "-760", "-760", "2280", ""]  # Eve was not there


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_kept_as_text(
    world: World, client: Client
) -> None:
    table = [*list(world.players.values())[:3], services.player_add(club=world.club, name="=1+1")]
    evening = play_evening(world, dt.date(2025, 1, 1), table, [passed(table)])
    with translation.override("en"):  # read_csv reads the English convention (commas)
        rows = read_csv(exports.evening_csv(evening).encode())
    assert rows[0][-1] == "'=1+1"


def test_the_json_downloads_are_the_deal_sheet_and_the_season_file(
    world: World, client: Client
) -> None:
    evening = six_player_evening(world)
    client.force_login(world.member)
    response = client.get(f"/evenings/{evening.pk}/export.json")
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert json.loads(response.content.decode()) == json.loads(exports.evening_json(evening))
    assert "Chloé" in response.content.decode()  # not \u00e9
    assert client.get(f"/evenings/{evening.pk}/export.json?game=2").status_code == 404
    season = Season.objects.get(club=world.club)
    data = json.loads(client.get(f"/clubs/{world.club.pk}/seasons/{season.pk}/export.json").content)
    assert data["evenings"][0]["place"] == "Chez Zoé"


BAD_SHEET = {
    "players": ["Ana", "Ben", "Chloé", "Nouveau"],
    "deals": [
        {"taker": "Ana", "contract": "garde", "bouts": 2, "points": 49},
        {"passed": True},
        {"taker": "Ben", "contract": "petite", "bouts": 1, "points": 93},
    ],
}


def test_a_bad_sheet_saves_nothing_and_says_which_deal_and_field(
    world: World, client: Client
) -> None:
    client.force_login(world.member)
    text = json.dumps(BAD_SHEET, ensure_ascii=False, indent=1)
    evenings, players = Evening.objects.count(), Player.objects.count()
    response = client.post(
        f"/clubs/{world.club.pk}/import/",
        {"import-text": text, "import-date": "2025-05-01"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "deal 3: points: 93 is more than 91" in response.text
    assert "Nothing was imported" in response.text
    assert (Evening.objects.count(), Player.objects.count()) == (evenings, players)
    assert "&quot;Nouveau&quot;" in response.text  # the pasted text is kept


def test_the_message_is_the_one_score_deals_prints(world: World, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(BAD_SHEET), encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(SystemExit) as score_exit:
        call_command("score_deals", str(path), stderr=err)
    assert score_exit.value.code == 2
    with pytest.raises(sheet_import.ImportRefused) as refused:
        sheet_import.read_import(path.read_bytes())
    assert refused.value.line == err.getvalue().strip() == "deal 3: points: 93 is more than 91"


def test_an_import_failing_half_way_saves_nothing(world: World, monkeypatch) -> None:
    good = {**BAD_SHEET, "deals": BAD_SHEET["deals"][:2]}
    other = {**good, "players": ["Ana", "Ben", "Chloé", "Newcomer"], "deals": good["deals"][:1]}
    season = {
        "season": "2031",
        "evenings": [
            {"date": "2031-01-01", "place": "", "game": 1, "sheet": good},
            {"date": "2031-01-02", "place": "", "game": 1, "sheet": other},
        ],
    }
    store = services.imports.store_game
    calls = []

    def failing(**kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise ScoringError("deal", "the disk is full")
        return store(**kwargs)

    monkeypatch.setattr(services.imports, "store_game", failing)
    before = (Evening.objects.count(), Player.objects.count(), Season.objects.count())
    with pytest.raises(sheet_import.ImportRefused) as refused:
        sheet_import.import_entries(
            club=world.club, entries=sheet_import.read_import(json.dumps(season)), created_by=None
        )
    assert refused.value.line == "deal: the disk is full"
    assert len(calls) == 2  # the first evening was written, then undone
    assert (Evening.objects.count(), Player.objects.count(), Season.objects.count()) == before


def test_an_uploaded_sheet_becomes_an_evening(world: World, client: Client) -> None:
    client.force_login(world.member)
    sheet = {**BAD_SHEET, "deals": BAD_SHEET["deals"][:2]}
    upload = SimpleUploadedFile(
        "soirée.json", json.dumps(sheet, ensure_ascii=False).encode(), "application/json"
    )
    response = client.post(
        f"/clubs/{world.club.pk}/import/",
        {
            "import-file": upload,
            "import-date": "2025-05-01",
            "import-place": "Ici",
            "import-confirm": "on",
        },
    )
    evening = Evening.objects.get(club=world.club, date="2025-05-01")
    assert response.status_code == 302
    assert response["Location"] == f"/evenings/{evening.pk}/"
    assert evening.place == "Ici"
    assert world.club.players.filter(name="Nouveau").exists()
    assert scores_by_deal(evening)[0] == {"Ana": 198, "Ben": -66, "Chloé": -66, "Nouveau": -66}


def test_an_escopette_sheet_imports_as_a_game_of_lescopette(world: World) -> None:
    source = escopette_evening(world, dt.date(2025, 3, 1), list(world.players.values())[:4])
    entries = read_import(exports.evening_json(source))
    (imported,) = sheet_import.import_entries(club=world.club, entries=entries, created_by=None)
    game = imported.games.get()
    assert (game.kind, game.target) == ("escopette", 100)
    assert scores_by_deal(imported) == scores_by_deal(source)


def test_the_commands_export_and_import_for_backups(world: World, tmp_path: Path) -> None:
    evening = six_player_evening(world)
    season = Season.objects.get(club=world.club)
    out = io.StringIO()
    call_command("export_evening", evening.pk, stdout=out)
    assert json.loads(out.getvalue()) == json.loads(exports.evening_json(evening))
    path = tmp_path / "evening.csv"
    call_command(
        "export_evening", evening.pk, "--format", "csv", "--output", str(path), "--lang", "en"
    )
    assert read_csv(path.read_bytes())[0][P] == "Ana"
    season_file = tmp_path / "season.json"
    call_command("export_season", season.pk, "-o", str(season_file))
    other = make_world(club="Club B")
    out = io.StringIO()
    call_command("import_sheet", other.club.pk, str(season_file), stdout=out)
    imported = other.club.evenings.get()
    assert out.getvalue().strip() == f"evening {imported.pk}: 2025-04-18"
    assert scores_by_deal(imported) == scores_by_deal(evening)
    csv_out = io.StringIO()
    call_command("export_season", season.pk, "--format", "csv", stdout=csv_out)
    assert len(read_csv(csv_out.getvalue().encode())) == 6


def test_the_import_command_refuses_a_bad_sheet_with_status_2(world: World, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(BAD_SHEET), encoding="utf-8")
    err = io.StringIO()
    before = Evening.objects.count()
    with pytest.raises(SystemExit) as exit_:
        call_command("import_sheet", world.club.pk, str(path), "--date", "2025-05-01", stderr=err)
    assert exit_.value.code == 2
    assert err.getvalue().strip() == "deal 3: points: 93 is more than 91"
    assert Evening.objects.count() == before
    path.write_text(json.dumps({**BAD_SHEET, "deals": []}), encoding="utf-8")
    call_command(
        "import_sheet", world.club.pk, str(path), "--date", "2025-05-01", stdout=io.StringIO()
    )
    assert Evening.objects.get(date="2025-05-01").club == world.club
