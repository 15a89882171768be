"""Exports, CSV, sheet imports and the club archive carry the house rules, so that an import
scores every deal as the app did."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from decimal import Decimal

import pytest
from django.utils import translation

from scorekeeper import services
from scorekeeper.exchange import archive_read, archive_write, csv_rules, exports, sheet_import
from scorekeeper.exchange.import_preview import import_preview
from scorekeeper.models import Club, DealScore, Evening, Season
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import STAKE_TRUMPS, EscopetteDeal
from scorekeeper.scoring.import_plan import SheetEntry
from scorekeeper.scoring.rules import FFT_RULES, HouseRules
from scorekeeper.scoring.sheet import load_sheet_text, parse_sheet, score_sheet
from scorekeeper.scoring.tarot import TarotDeal, score_deal
from tests.factories import make_club, make_user, start_evening

pytestmark = pytest.mark.django_db

HOUSE = HouseRules(
    multipliers="classic",
    poignees="20-40-60",
    poignee_multiplied=True,
    petit_au_bout="deal_winner",
    misere=10,
)


def _deals(ids: tuple[int, ...]) -> list[TarotDeal[int]]:
    return [
        TarotDeal(
            seated=ids,
            taker=ids[0],
            contract="garde_contre",
            bouts=2,
            points=Decimal(48),
            poignees=("double",),
            miseres=(ids[2],),
        ),
        TarotDeal(
            seated=ids,
            taker=ids[1],
            contract="garde",
            bouts=1,
            points=Decimal("50.5"),
            petit_au_bout="defense",
            miseres=(ids[0], ids[3]),
        ),
        TarotDeal(seated=ids, taker=ids[2], contract="petite", bouts=3, points=Decimal(30)),
    ]


def _played(club: Club, players, date: dt.date, *, miseres: bool = True) -> Evening:
    evening, game = start_evening(club, players, date=date, place="Chez Ana")
    for inputs in _deals(tuple(p.pk for p in players)):
        services.deal_record(game=game, inputs=inputs if miseres else replace(inputs, miseres=()))
    return evening


def _scores(evening: Evening) -> list[dict[str, int]]:
    rows: dict[int, dict[str, int]] = {}
    for row in DealScore.objects.filter(deal__game__evening=evening).select_related(
        "player", "deal"
    ):
        rows.setdefault(row.deal.number, {})[row.player.name] = row.score
    return [rows[number] for number in sorted(rows)]


@pytest.fixture
def house_club():
    """A club that played one evening by the FFT rules, then two by its house rules."""
    club, players = make_club()
    fft = _played(club, players, dt.date(2025, 1, 10), miseres=False)  # FFT: no misère
    services.club_rules_set(club=club, rules=HOUSE)
    first = _played(club, players, dt.date(2025, 2, 7))
    second = _played(club, players, dt.date(2025, 3, 7))
    return club, players, fft, first, second


def _other_club() -> Club:
    club, _players = make_club(make_user("zoe@example.com", "Zoé"), name="Autre")
    return club


def test_the_house_evenings_are_scored_by_their_rules(house_club) -> None:
    _club, players, _fft, first, _second = house_club
    ids = tuple(p.pk for p in players)
    by_id = {p.pk: p.name for p in players}
    expected = [
        {by_id[pk]: score for pk, score in score_deal(deal, HOUSE).items()} for deal in _deals(ids)
    ]
    assert _scores(first) == expected


def test_the_deal_sheet_carries_the_rules_and_imports_with_the_same_scores(house_club) -> None:
    _club, _players, _fft, first, _second = house_club
    text = exports.evening_json(first)
    data = json.loads(text)
    assert data["version"] == 3 and data["rules"] == HOUSE.to_data()
    assert data["deals"][1]["miseres"] == ["Ana", "Dan"]
    sheet = load_sheet_text(text)
    assert score_sheet(sheet)["deals"] == _scores(first)
    entries = sheet_import.read_import(text)
    (imported,) = sheet_import.import_entries(club=_other_club(), entries=entries, created_by=None)
    assert imported.house_rules == HOUSE
    assert _scores(imported) == _scores(first)


def test_an_fft_evenings_sheet_has_no_rules(house_club) -> None:
    _club, _players, fft, _first, _second = house_club
    data = json.loads(exports.evening_json(fft))
    assert "rules" not in data


def test_a_season_file_imports_each_evening_by_its_own_rules(house_club) -> None:
    club, _players, fft, first, second = house_club
    season = Season.objects.get(club=club, name="2025")
    entries = sheet_import.read_import(exports.season_json(season))
    evenings = sheet_import.import_entries(club=_other_club(), entries=entries, created_by=None)
    assert [e.house_rules for e in evenings] == [FFT_RULES, HOUSE, HOUSE]
    for original, again in zip((fft, first, second), evenings, strict=True):
        assert _scores(again) == _scores(original)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_csv_carries_the_rules_and_misères_and_imports_the_same(house_club, language) -> None:
    club, _players, fft, first, second = house_club
    season = Season.objects.get(club=club, name="2025")
    with translation.override(language):
        text = exports.season_csv(season)
        entries = sheet_import.read_import(text)
        headers = csv_rules.rules_headers()
    header = text.splitlines()[0]
    assert headers["rules"] in header and headers["miseres"] in header
    assert "multipliers=classic poignees=20-40-60 poignee_multiplied=true" in text
    evenings = sheet_import.import_entries(club=_other_club(), entries=entries, created_by=None)
    assert [e.house_rules for e in evenings] == [FFT_RULES, HOUSE, HOUSE]
    for original, again in zip((fft, first, second), evenings, strict=True):
        assert _scores(again) == _scores(original)
    imported_deal = evenings[1].games.get().deals.get(number=2)
    names = dict(evenings[1].club.players.values_list("pk", "name"))
    assert [names[pk] for pk in imported_deal.miseres] == ["Ana", "Dan"]


def test_an_fft_clubs_csv_has_no_rules_column() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    ids = tuple(p.pk for p in players)
    services.deal_record(
        game=game,
        inputs=TarotDeal(seated=ids, taker=ids[0], contract="garde", bouts=2, points=Decimal(45)),
    )
    with translation.override("en"):
        header = exports.evening_csv(evening).splitlines()[0]
    assert "Rules" not in header and "Misères" not in header


def test_a_game_whose_rows_disagree_on_the_rules_is_refused(house_club) -> None:
    _club, _players, _fft, first, _second = house_club
    with translation.override("en"):
        text = exports.evening_csv(first)
        lines = text.splitlines()
        lines[2] = lines[2].replace("multipliers=classic ", "")
        with pytest.raises(sheet_import.ImportRefused) as refused:
            sheet_import.read_import("\r\n".join(lines))
    assert "same rules" in refused.value.line


def test_the_archive_keeps_the_clubs_rules_and_each_evenings(house_club) -> None:
    club, _players, fft, first, second = house_club
    text = archive_write.dump_archive(club)
    data = json.loads(text)
    assert data["club"]["rules"] == HOUSE.to_data()
    assert ["rules" in e for e in data["evenings"]] == [False, True, True]
    restored = services.archive_import(
        archive=archive_read.read_archive(text),
        owner=make_user("zoe@example.com", "Zoé"),
        restore_members=False,
    )
    assert restored.house_rules == HOUSE
    again = list(restored.evenings.order_by("date"))
    assert [e.house_rules for e in again] == [FFT_RULES, HOUSE, HOUSE]
    for original, copy in zip((fft, first, second), again, strict=True):
        assert _scores(copy) == _scores(original)
    back = json.loads(archive_write.dump_archive(restored))
    # The owner's upload closes the evenings that were open; all else comes back the same.
    assert all(e.pop("closed_at") for e in back["evenings"])
    for e in data["evenings"]:
        e.pop("closed_at")
    assert back["evenings"] == data["evenings"]


def test_an_archive_with_a_rule_that_is_not_a_choice_is_refused(house_club) -> None:
    club, *_rest = house_club
    data = json.loads(archive_write.dump_archive(club))
    data["evenings"][1]["rules"] = {"misere": 15}
    with pytest.raises(ScoringError) as refused:
        archive_read.read_archive(json.dumps(data))
    assert "misere" in str(refused.value)
    assert getattr(refused.value, "archive_place", {}) == {"evening": 2}


@pytest.mark.parametrize("way", ["season_json", "season_csv"])
def test_an_evening_of_tarot_and_lescopette_comes_back_as_one_evening_with_its_rules(
    house_club, way
) -> None:
    club, players, _fft, first, _second = house_club
    escopette = services.game_start(
        evening=first, players=players, first_dealer=players[0], kind="escopette", target=100
    )
    stakes = {trump: players[1].pk for trump in STAKE_TRUMPS}
    services.deal_record(game=escopette, inputs=EscopetteDeal(stakes=stakes))
    season = Season.objects.get(club=club, name="2025")
    with translation.override("en"):
        entries = sheet_import.read_import(getattr(exports, way)(season))
    evenings = sheet_import.import_entries(club=_other_club(), entries=entries, created_by=None)
    assert [e.games.count() for e in evenings] == [1, 2, 1]
    assert evenings[1].house_rules == HOUSE
    assert _scores(evenings[1]) == _scores(first)


def test_games_of_one_evening_by_other_rules_are_previewed_as_they_are_imported() -> None:
    deal = {"taker": "Ana", "contract": "garde", "bouts": 2, "points": 51}
    sheet = {"version": 2, "players": ["Ana", "Ben", "Chloé", "Dan"], "deals": [deal]}
    day = dt.date(2025, 4, 4)
    entries = [
        SheetEntry(parse_sheet(sheet), date=day, place="Chez Ana", evening=1),
        SheetEntry(
            parse_sheet({**sheet, "version": 3, "rules": HOUSE.to_data(), "deals": [deal] * 2}),
            date=day,
            place="Chez Ana",
            evening=1,
        ),
    ]
    club = _other_club()
    preview = import_preview(club=club, entries=entries)
    evenings = services.evenings_import(club=club, entries=entries, created_by=None)
    assert [e.house_rules for e in evenings] == [FFT_RULES, HOUSE]  # one set of rules each
    assert [(p.date, p.games) for p in preview.evenings] == [(day, 1), (day, 1)]
