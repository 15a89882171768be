"""Imports: CSV both ways, duplicates, closed evenings, preview, caps, errors in three
languages, and the same rules for names, places and dates as the forms."""

from __future__ import annotations

import datetime as dt
import json
import unicodedata

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from scorekeeper import services
from scorekeeper.exchange import exports, sheet_import
from scorekeeper.models import Deal, DealScore, Evening, Player, Season
from scorekeeper.models.figures import TAROT
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.scoring.sheet import parse_sheet, score_sheet
from scorekeeper.scoring.tarot import TarotDeal
from tests.scorekeeper.exchange.test_export_import import scores_by_deal, six_player_evening
from tests.scorekeeper.season_factories import (
    World,
    escopette_evening,
    for_season_by_kind,
    hand_computed_season,
    make_world,
)

pytestmark = pytest.mark.django_db

SHEET = {
    "players": ["Ana", "Ben", "Chloé", "Nouveau"],
    "deals": [
        {"taker": "Ana", "contract": "garde", "bouts": 2, "points": 49},
        {"passed": True},
        {"taker": "Ben", "contract": "petite", "bouts": 1, "points": 52.5},
    ],
}


@pytest.fixture
def world() -> World:
    return make_world(names=("Ana", "Ben", "Chloé", "Dan", "Eve", "Zed"))


def import_text(world: World, text: str, **options) -> list[Evening]:
    return sheet_import.import_entries(
        club=world.club, entries=sheet_import.read_import(text), created_by=None, **options
    )


def refusal(world: World, text: str, **options) -> sheet_import.ImportRefused:
    with pytest.raises(sheet_import.ImportRefused) as caught:
        import_text(world, text, **options)
    return caught.value


def other_club() -> World:
    return make_world(names=(), club="Autre")


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_evening_csv_imports_back_into_the_same_scores(world: World, language: str) -> None:
    evening = six_player_evening(world)
    with translation.override(language):
        text = exports.evening_csv(evening)
    first = text.removeprefix("\ufeff").split("\r\n", 1)[0]
    assert first.count(";" if language == "fr" else ",") >= 20
    if language == "fr":
        assert "45,5" in text and "Donneur" in first
    else:
        assert "45.5" in text and "Dealer" in first
    target = other_club()
    with translation.override("ru"):  # read whatever the reader's language
        (copy,) = sheet_import.import_entries(
            club=target.club, entries=sheet_import.read_import(text), created_by=None
        )
    assert copy.date == evening.date and copy.place == evening.place
    assert scores_by_deal(copy) == scores_by_deal(evening)
    dealers = lambda e: list(  # noqa: E731
        Deal.objects.filter(game__evening=e)
        .order_by("number")
        .values_list("dealer__name", "partner__name", "poignees")
    )
    assert dealers(copy) == dealers(evening)


def test_the_season_csv_imports_back_evening_by_evening(world: World) -> None:
    hand_computed_season(world)
    escopette_evening(
        world, dt.date(2025, 3, 8), [world.players[n] for n in ("Ana", "Ben", "Chloé", "Dan")]
    )
    season = Season.objects.get(club=world.club, name="2025")
    text = exports.season_csv(season)
    target = other_club()
    evenings = sheet_import.import_entries(
        club=target.club, entries=sheet_import.read_import(text.encode("utf-8")), created_by=None
    )
    originals = list(exports.season_evenings(season).order_by("date", "pk"))
    assert [e.date for e in evenings] == [e.date for e in originals]
    for copy, original in zip(evenings, originals, strict=True):
        assert scores_by_deal(copy) == scores_by_deal(original)
    assert {g.kind for e in evenings for g in e.games.all()} == {"tarot", "escopette"}


def test_importing_the_same_file_twice_is_refused_naming_the_evening(world: World) -> None:
    (first,) = import_text(world, json.dumps(SHEET), date=dt.date(2025, 5, 2))
    deals = Deal.objects.count()
    again = refusal(world, json.dumps(SHEET), date=dt.date(2025, 5, 2))
    assert again.error.code == "duplicate" and again.error.evening == first
    with translation.override("fr"):
        assert "la soirée du 2025-05-02" in again.text()
    assert Deal.objects.count() == deals
    # The same game, players written in another case and Unicode form, is the same game.
    renamed = json.loads(json.dumps(SHEET).replace('"Ana"', '"ana"').replace('"Ben"', '"BEN"'))
    renamed["players"][2] = unicodedata.normalize("NFD", "Chloé")
    assert refusal(world, json.dumps(renamed), date=dt.date(2025, 5, 2)).error.code == "duplicate"
    assert import_text(world, json.dumps(SHEET), date=dt.date(2025, 5, 2), skip_existing=True) == []
    assert Deal.objects.count() == deals


def test_an_exported_season_imported_twice_is_refused_or_skipped(world: World) -> None:
    hand_computed_season(world)
    season = Season.objects.get(club=world.club, name="2025")
    text = exports.season_json(season)
    target = other_club()
    first = sheet_import.import_entries(
        club=target.club, entries=sheet_import.read_import(text), created_by=None
    )
    assert len(first) == 3
    with pytest.raises(sheet_import.ImportRefused) as caught:
        sheet_import.import_entries(
            club=target.club, entries=sheet_import.read_import(text), created_by=None
        )
    assert caught.value.evening == 1
    skipped = sheet_import.import_entries(
        club=target.club,
        entries=sheet_import.read_import(text),
        created_by=None,
        skip_existing=True,
    )
    assert skipped == []
    assert Evening.objects.filter(club=target.club).count() == 3


def test_imported_evenings_are_closed_and_stay_off_the_home_page(
    world: World, client: Client
) -> None:
    (evening,) = import_text(world, json.dumps(SHEET))
    assert evening.is_closed
    client.force_login(world.member)
    assert f"/evenings/{evening.pk}/" not in client.get("/").content.decode()


def test_a_sheet_names_its_dealers_and_keeps_them(world: World) -> None:
    sheet = {**SHEET, "version": 2, "deals": [{**d, "dealer": "Chloé"} for d in SHEET["deals"]]}
    (evening,) = import_text(world, json.dumps(sheet))
    assert set(
        Deal.objects.filter(game__evening=evening).values_list("dealer__name", flat=True)
    ) == {"Chloé"}
    data = json.loads(exports.evening_json(evening))
    assert data["version"] == 2 and [d["dealer"] for d in data["deals"]] == ["Chloé"] * 3


MISTAKES = [
    # (sheet change, French, English, Russian)
    (
        {"deals": [{"taker": "Ana", "contract": "garde", "bouts": 2, "points": 95}]},
        "donne 1\u202f: points\u202f: 95 dépasse 91",
        "deal 1: points: 95 is more than 91",
        "раздача 1: очки: 95 больше 91",
    ),
    (
        {"players": ["Ana", "Ana", "Ben"]},
        "joueurs\u202f: Ana figure deux fois",
        "players: Ana is listed twice",
        "игроки: Ana указан(а) дважды",
    ),
    (
        {"deals": [{"taker": "Zoé", "contract": "garde", "bouts": 2, "points": 45}]},
        "donne 1\u202f: preneur\u202f: Zoé n’est pas l’un des joueurs",
        "deal 1: taker: Zoé is not one of the players",
        "раздача 1: взявший: Zoé — не один из игроков",
    ),
    (
        {"players": ["Ana", "Ben", "Chloé", "Dan\x00"]},
        "contient un caractère invisible",
        "holds an invisible",
        "невидимый",
    ),
]


@pytest.mark.parametrize(("change", "fr", "en", "ru"), MISTAKES)
def test_each_import_error_is_shown_in_french_english_and_russian(
    world: World, client: Client, change, fr, en, ru
) -> None:
    sheet = {**SHEET, **change}
    client.force_login(world.member)
    for language, expected in (("fr", fr), ("en", en), ("ru", ru)):
        client.cookies["django_language"] = language
        response = client.post(
            f"/clubs/{world.club.pk}/import/",
            {"import-text": json.dumps(sheet, ensure_ascii=False), "import-confirm": "on"},
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert response.status_code == 200
        problem = response.content.decode()
        problem = problem[problem.index('id="import-problem"') :]
        assert expected.replace("’", "&#x27;").replace("'", "&#x27;") in problem.replace(
            "’", "&#x27;"
        ), (language, problem[:400])
    assert Evening.objects.filter(club=world.club).count() == 0


def test_text_that_is_not_json_says_where_without_python_words(world: World) -> None:
    refused = refusal(world, '{"players": ["Ana" "Ben"]}')
    with translation.override("fr"):
        assert refused.text() == "feuille\u202f: JSON invalide\u202f: ligne 1, colonne 20"


def test_the_import_command_speaks_the_language_asked(world: World, tmp_path, capsys) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**SHEET, **MISTAKES[0][0]}), encoding="utf-8")
    with pytest.raises(SystemExit):
        call_command("import_sheet", world.club.pk, str(path), "--lang", "ru")
    assert "раздача 1: очки: 95 больше 91" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"players": ["Ana", "Ben", "Chloé", "N\x00"]}, "control_character"),
        ({"players": ["Ana", "Ben", "Chloé", "x" * 41]}, "too_long"),
        ({"players": ["Ana", "Ben", "Zoé", unicodedata.normalize("NFD", "Zoé")]}, "same_player"),
        ({"players": ["Ana", "Ben", "Chloé", "Zero\u200bWidth"]}, "control_character"),
    ],
)
def test_names_follow_the_forms_rules_on_import(world: World, change, code) -> None:
    players = Player.objects.count()
    assert (
        refusal(world, json.dumps({**SHEET, **change, "deals": [{"passed": True}]})).error.code
        == code
    )
    assert Player.objects.count() == players


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        ({"date": "0001-01-01"}, "date_range"),
        ({"date": "9999-12-31"}, "date_range"),
        ({"date": "2025-02-30"}, "not_date"),
        ({"date": "2025-02-01", "place": "x" * 81}, "too_long"),
        ({"date": "2025-02-01", "place": "Cave\x00"}, "control_character"),
    ],
)
def test_a_season_file_keeps_to_sane_dates_and_places(world: World, entry, code) -> None:
    season = {"season": "x", "evenings": [{"place": "", **entry, "game": 1, "sheet": SHEET}]}
    seasons = Season.objects.count()
    refused = refusal(world, json.dumps(season))
    assert refused.error.code == code and refused.evening == 1
    assert Season.objects.count() == seasons


def test_an_nfd_name_finds_the_nfc_player(world: World) -> None:
    zoe = services.player_add(club=world.club, name="Zoé")
    sheet = {**SHEET, "players": ["Ana", "Ben", unicodedata.normalize("NFD", "ZOÉ")]}
    (evening,) = import_text(world, json.dumps(sheet, ensure_ascii=False).replace("Nouveau", "x"))
    assert zoe.pk in set(
        DealScore.objects.filter(deal__game__evening=evening).values_list("player", flat=True)
    )


def test_the_preview_shows_what_would_be_written_and_writes_nothing(
    world: World, client: Client
) -> None:
    client.force_login(world.member)
    response = client.post(
        f"/clubs/{world.club.pk}/import/",
        {"import-text": json.dumps(SHEET), "import-date": "2025-05-01"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    page = response.content.decode()
    assert 'id="import-preview"' in page
    assert "3 deals" in page and "Nouveau" in page
    totals = score_sheet(parse_sheet(SHEET))["totals"]
    assert f"<td>Ana</td><td>{totals['Ana']}</td>" in page
    assert f"<td>Nouveau</td><td>{totals['Nouveau']}</td>" in page
    assert Evening.objects.count() == 0 and not Player.objects.filter(name="Nouveau").exists()
    assert 'name="import-confirm"' in page
    response = client.post(
        f"/clubs/{world.club.pk}/import/",
        {"import-text": json.dumps(SHEET), "import-date": "2025-05-01", "import-confirm": "on"},
    )
    assert response.status_code == 302
    assert Evening.objects.count() == 1


def test_an_import_over_the_cap_is_refused_with_a_clear_message(world: World, monkeypatch) -> None:
    monkeypatch.setattr(sheet_import, "IMPORT_MAX_DEALS", 2)
    refused = refusal(world, json.dumps(SHEET))
    with translation.override("en"):
        assert refused.text() == "sheet: 3 deals: one import takes at most 2"


def test_paper_history_imports_from_the_template_and_counts_in_totals_only(
    world: World, client: Client
) -> None:
    client.force_login(world.member)
    template = client.get(f"/clubs/{world.club.pk}/import/template.csv", HTTP_ACCEPT_LANGUAGE="fr")
    assert template.status_code == 200
    (evening,) = import_text(world, template.content.decode("utf-8"))
    deals = Deal.objects.filter(game__evening=evening)
    assert deals.count() == 2 and all(d.paper and not d.passed for d in deals)
    assert scores_by_deal(evening) == [
        {"Ana": 90, "Ben": -30, "Chloé": -30, "Dan": -30},
        {"Ana": -40, "Ben": 120, "Chloé": -40, "Dan": -40},
    ]
    season = Season.objects.get(club=world.club)
    page = client.get(f"/clubs/{world.club.pk}/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    from django.core.cache import cache

    cache.clear()
    ana = client.get(f"/clubs/{world.club.pk}/players/{world.players['Ana'].pk}/")
    assert ana.status_code == 200


def test_a_paper_deal_that_does_not_add_up_to_zero_is_refused(world: World) -> None:
    sheet = {
        "players": ["Ana", "Ben", "Chloé"],
        "deals": [{"scores": {"Ana": 10, "Ben": -5, "Chloé": -4}}],
    }
    refused = refusal(world, json.dumps(sheet))
    assert refused.error.code == "paper_sum"
    with translation.override("fr"):
        assert refused.text() == "donne 1\u202f: scores\u202f: les scores font 1 au total, pas 0"


def test_the_table_enters_a_deal_the_rules_do_not_cover_by_its_scores(
    world: World, client: Client
) -> None:
    p = world.players
    evening = services.evening_start(
        club=world.club,
        players=[p["Ana"], p["Ben"], p["Chloé"], p["Dan"]],
        first_dealer=p["Ana"],
        created_by=world.owner,
    )
    game = evening.games.get()
    client.force_login(world.member)
    page = client.get(f"/evenings/{evening.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"/evenings/{evening.pk}/games/{game.pk}/paper/" in page
    url = f"/evenings/{evening.pk}/games/{game.pk}/paper/"
    data = {"paper-dealer": p["Ben"].pk, f"paper-score_{p['Ana'].pk}": "30",
            f"paper-score_{p['Ben'].pk}": "-10", f"paper-score_{p['Chloé'].pk}": "-10",
            f"paper-score_{p['Dan'].pk}": "-11"}  # fmt: skip
    refused = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 422 and "add up to -1, not 0" in refused.content.decode()
    assert not Deal.objects.filter(game=game).exists()
    data[f"paper-score_{p['Dan'].pk}"] = "-10"
    assert client.post(url, data).status_code == 302
    deal = Deal.objects.get(game=game)
    assert deal.paper and deal.dealer == p["Ben"]
    sheet = client.get(f"/evenings/{evening.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'class="paper-mark"' in sheet
    # Its edit link leads to the same kind of form.
    edit = client.get(f"/evenings/{evening.pk}/deals/{deal.pk}/edit/")
    assert edit.status_code == 302 and edit["Location"].endswith(f"/deals/{deal.pk}/paper/")
    # Deleted and restored, it comes back with its scores.
    deleted = services.deal_delete(deal=deal)
    restored = services.deal_restore(deleted=deleted)
    assert restored.paper
    assert dict(restored.scores.values_list("player__name", "score")) == {
        "Ana": 30,
        "Ben": -10,
        "Chloé": -10,
        "Dan": -10,
    }


def test_a_paper_deal_counts_in_totals_but_not_as_a_deal_taken(world: World) -> None:
    from django.core.cache import cache

    p = world.players
    table = [p["Ana"], p["Ben"], p["Chloé"]]
    evening = services.evening_start(
        club=world.club, players=table, first_dealer=table[0], created_by=world.owner
    )
    services.deal_record(
        game=evening.games.get(),
        inputs=PaperDeal(
            seated=tuple(x.pk for x in table),
            scores={p["Ana"].pk: 40, p["Ben"].pk: -20, p["Chloé"].pk: -20},
        ),
    )
    services.deal_record(
        game=evening.games.get(),
        inputs=TarotDeal(
            seated=tuple(x.pk for x in table),
            taker=p["Ben"].pk,
            contract="garde",
            bouts=2,
            points=49,
        ),
    )
    cache.clear()
    season = Season.objects.get(club=world.club)
    rows = {row.name: row for row in for_season_by_kind(season)[TAROT].rows}
    assert rows["Ana"].total == 40 - 66 and rows["Ben"].total == -20 + 132
    assert rows["Ana"].deals == 1 and rows["Ben"].deals == 1  # the paper deal is not a deal played
    assert rows["Ben"].takes == 1 and rows["Ana"].takes == 0


def test_score_deals_says_its_error_in_the_language_asked(tmp_path, capsys) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**SHEET, **MISTAKES[0][0]}), encoding="utf-8")
    for language, expected in (("fr", MISTAKES[0][1]), ("en", MISTAKES[0][2])):
        with pytest.raises(SystemExit):
            call_command("score_deals", str(path), "--lang", language)
        assert expected in capsys.readouterr().err


def test_a_game_entered_at_the_table_is_noticed_when_its_export_comes_back(world: World) -> None:
    evening = six_player_evening(world)
    season = Season.objects.get(club=world.club)
    text = exports.season_json(season)
    deals = Deal.objects.count()
    refused = refusal(world, text)
    assert refused.error.code == "duplicate" and refused.error.evening == evening
    assert import_text(world, text, skip_existing=True) == []
    assert Deal.objects.count() == deals
    # The same deals on another date are another evening.
    moved = text.replace(evening.date.isoformat(), "2025-04-19")
    assert len(import_text(world, moved)) == 1


def test_a_csv_saved_again_by_french_excel_in_windows_1252_reads_back(world: World) -> None:
    evening = six_player_evening(world)
    with translation.override("fr"):
        text = exports.evening_csv(evening).removeprefix("\ufeff")
    target = other_club()
    (copy,) = sheet_import.import_entries(
        club=target.club, entries=sheet_import.read_import(text.encode("cp1252")), created_by=None
    )
    assert scores_by_deal(copy) == scores_by_deal(evening)
    assert Player.objects.filter(club=target.club, name="Chloé").exists()


def test_forms_show_a_scoring_error_in_the_readers_language() -> None:
    from scorekeeper.exchange.error_text import message_text

    error = ScoringError.coded("points", "points_over", "%(points)s is more than 91", points="95")
    assert str(error) == "points: 95 is more than 91"  # the English message stays as it was
    for language, expected in (
        ("fr", "95 dépasse 91"),
        ("ru", "95 больше 91"),
        ("en", "95 is more than 91"),
    ):
        with translation.override(language):
            assert message_text(error) == expected
    uncoded = ScoringError("points", "an old message")
    assert message_text(uncoded) == "an old message"
