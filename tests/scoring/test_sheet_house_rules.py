"""House rules in the deal sheet: version 3, "rules" and a deal's "miseres"."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.rules import FFT_RULES, HouseRules
from scorekeeper.scoring.sheet import (
    SHEET_VERSION,
    load_sheet_text,
    parse_sheet,
    score_sheet,
    sheet_from_deals,
    sheet_to_data,
)
from scorekeeper.scoring.sheet_write import map_players
from scorekeeper.scoring.tarot import TarotDeal
from tests.scoring.test_house_rules import EVERY_RULES
from tests.scoring.test_properties import tarot_sheets

FOUR = ["Ana", "Ben", "Chloé", "Dan"]
FIVE = [*FOUR, "Eve"]


def garde_49(**extra) -> dict:
    return {"taker": "Ana", "contract": "garde", "bouts": 2, "points": 49, **extra}


def sheet(*deals: dict, rules: dict | None = None, players: list[str] = FOUR, **top) -> dict:
    data: dict = {"version": 3, "game": "tarot", "players": players}
    if rules is not None:
        data["rules"] = rules
    return {**data, **top, "deals": list(deals)}


def first_scores(data: dict) -> dict[str, int]:
    return score_sheet(parse_sheet(data))["deals"][0]


def error_of(data: object) -> ScoringError:
    with pytest.raises(ScoringError) as caught:
        parse_sheet(data)
    return caught.value


def test_the_latest_sheet_version_is_3():
    assert SHEET_VERSION == 3


def test_a_sheet_without_rules_is_scored_by_the_fft():
    parsed = parse_sheet(sheet(garde_49()))
    assert parsed.rules == FFT_RULES
    assert first_scores(sheet(garde_49())) == {"Ana": 198, "Ben": -66, "Chloé": -66, "Dan": -66}


def test_an_empty_rules_object_is_the_fft():
    assert parse_sheet(sheet(garde_49(), rules={})).rules == FFT_RULES


def test_classic_multipliers_in_a_sheet():
    # garde sans, 2 bouts, 49: V = 33 x 3 = 99 (FFT: 132).
    data = sheet(garde_49(contract="garde_sans"), rules={"multipliers": "classic"})
    assert first_scores(data) == {"Ana": 297, "Ben": -99, "Chloé": -99, "Dan": -99}


def test_20_40_60_poignees_in_a_sheet():
    # garde, 2 bouts, 49, a double poignée: V = 66 + 40 = 106 (FFT: 96).
    data = sheet(garde_49(poignees=["double"]), rules={"poignees": "20-40-60"})
    assert first_scores(data) == {"Ana": 318, "Ben": -106, "Chloé": -106, "Dan": -106}


def test_multiplied_poignees_in_a_sheet():
    # garde, 2 bouts, 49, a simple poignée: V = 66 + 20 x 2 = 106 (FFT: 86).
    data = sheet(garde_49(poignees=["simple"]), rules={"poignee_multiplied": True})
    assert first_scores(data) == {"Ana": 318, "Ben": -106, "Chloé": -106, "Dan": -106}


def test_petit_au_bout_to_the_deal_winner_in_a_sheet():
    # garde, 1 bout, 48 (failed by 3), the attack led the Petit last: V = -56 - 20 = -76.
    played = garde_49(bouts=1, points=48, petit_au_bout="attack")
    data = sheet(played, rules={"petit_au_bout": "deal_winner"})
    assert first_scores(data) == {"Ana": -228, "Ben": 76, "Chloé": 76, "Dan": 76}
    assert first_scores(sheet(played)) == {"Ana": -108, "Ben": 36, "Chloé": 36, "Dan": 36}


def test_a_misere_in_a_sheet():
    # garde, 2 bouts, 49 (A +198, others -66); Ben's misère of 10: Ben +30, others -10.
    data = sheet(garde_49(miseres=["Ben"]), rules={"misere": 10})
    assert first_scores(data) == {"Ana": 188, "Ben": -36, "Chloé": -76, "Dan": -76}


def test_several_rules_together_in_a_sheet():
    rules = {
        "multipliers": "classic",
        "poignees": "20-40-60",
        "poignee_multiplied": True,
        "petit_au_bout": "deal_winner",
        "misere": 20,
    }
    played = garde_49(
        contract="garde_sans", petit_au_bout="defense", poignees=["double"], miseres=["Ben"]
    )
    # V = 33 x 3 + 40 x 3 + 10 x 3 = 249; Ben's misère of 20: +60, the others -20.
    assert first_scores(sheet(played, rules=rules)) == {
        "Ana": 727,
        "Ben": -189,
        "Chloé": -269,
        "Dan": -269,
    }


def test_the_totals_follow_the_rules():
    data = sheet(garde_49(miseres=["Ben"]), {"passed": True}, garde_49(), rules={"misere": 20})
    assert score_sheet(parse_sheet(data))["totals"] == {
        "Ana": 178 + 198,
        "Ben": -6 - 66,
        "Chloé": -86 - 66,
        "Dan": -86 - 66,
    }


def test_rules_are_read_from_version_1_and_2_sheets_too():
    for version in (1, 2):
        data = sheet(garde_49(), rules={"misere": 10}, version=version)
        assert parse_sheet(data).rules == HouseRules(misere=10)


def test_a_version_beyond_3_is_refused():
    error = error_of(sheet(garde_49(), version=4))
    assert (error.field, error.code, error.message) == (
        "version",
        "version",
        "4 is not a version this app reads (1 to 3)",
    )


def test_a_misere_without_the_misere_rule_is_refused_naming_the_deal():
    error = error_of(sheet(garde_49(), garde_49(miseres=["Ben"])))
    assert (error.deal, error.field, error.code) == (2, "miseres", "misere_off")
    assert str(error).startswith("deal 2: miseres: these rules score no misère")


def test_an_empty_miseres_list_is_allowed_under_the_fft():
    assert parse_sheet(sheet(garde_49(miseres=[]))).deals[0].miseres == ()


@pytest.mark.parametrize(
    ("miseres", "code", "message"),
    [
        ("Ben", "not_names", '"Ben" is not a list of names'),
        (["Zoé"], "not_a_player", "Zoé is not one of the players"),
        (["Ben", "Ben"], "listed_twice", "Ben is listed twice"),
        (["Eve"], "sitting_out", "Eve is sitting out this deal"),
        ([3], "not_text", "3 is not a string"),
    ],
)
def test_a_bad_miseres_list_is_refused(miseres, code, message):
    played = garde_49(miseres=miseres, sitting_out=["Eve"])
    error = error_of(sheet(played, rules={"misere": 10}, players=FIVE))
    assert (error.deal, error.field, error.code, error.message) == (1, "miseres", code, message)


def test_a_passed_deal_has_no_miseres():
    error = error_of(sheet({"passed": True, "miseres": ["Ben"]}, rules={"misere": 10}))
    assert (error.deal, error.field, error.code) == (1, "miseres", "unknown_key")


@pytest.mark.parametrize(
    ("rules", "field", "code"),
    [
        ({"multipliers": "fast"}, "rules", "rule_choice"),
        ({"misere": 5}, "rules", "rule_choice"),
        ({"poignee_multiplied": "yes"}, "rules", "rule_choice"),
        ({"chelem": 300}, "chelem", "unknown_key"),
        ("classic", "rules", "not_object"),
    ],
)
def test_bad_rules_are_refused(rules, field, code):
    error = error_of(sheet(garde_49(), rules=rules))
    assert (error.deal, error.field, error.code) == (None, field, code)


def test_bad_rules_read_in_english():
    error = error_of(sheet(garde_49(), rules={"misere": 5}))
    assert str(error) == "rules: 5 is not a choice for misere (0, 10, 20)"


def test_an_escopette_sheet_refuses_rules():
    data = {"game": "escopette", "players": FOUR, "target": 50, "rules": {}, "deals": []}
    error = error_of(data)
    assert (error.field, error.code) == ("rules", "rules_escopette")
    assert error.message == "l'escopette is scored by its stakes: it has no rules"


def test_a_sheet_with_house_rules_is_written_as_version_3_with_only_the_changed_rules():
    data = sheet(garde_49(miseres=["Ben"]), rules={"misere": 10, "multipliers": "fft"})
    written = sheet_to_data(parse_sheet(data))
    assert written == {
        "version": 3,
        "game": "tarot",
        "players": FOUR,
        "rules": {"misere": 10},
        "deals": [garde_49(miseres=["Ben"])],
    }
    assert parse_sheet(written) == parse_sheet(data)


def test_a_sheet_with_fft_rules_is_written_as_before():
    plain = {"game": "tarot", "players": FOUR, "deals": [garde_49()]}
    assert sheet_to_data(parse_sheet({**plain, "rules": {}})) == plain
    dealt = {"version": 2, **plain, "deals": [garde_49(dealer="Ben")]}
    assert sheet_to_data(parse_sheet({**dealt, "version": 3})) == dealt


def test_the_rules_survive_the_json_text():
    data = sheet(garde_49(miseres=["Chloé"]), rules={"misere": 20, "poignees": "20-40-60"})
    parsed = parse_sheet(data)
    assert load_sheet_text(json.dumps(sheet_to_data(parsed), ensure_ascii=False)) == parsed


def test_sheet_from_deals_takes_the_rules():
    rules = HouseRules(misere=10)
    played = TarotDeal(tuple(FOUR), "Ana", "garde", 2, 49, miseres=("Dan",))
    built = sheet_from_deals(FOUR, [played], rules=rules)
    assert built.rules == rules
    assert score_sheet(built)["deals"][0]["Dan"] == -66 + 30


def test_map_players_maps_the_miseres_too():
    played = TarotDeal(tuple(FOUR), "Ana", "garde", 2, 49, miseres=("Dan", "Ben"))
    mapped = map_players(played, FOUR.index)
    assert (mapped.seated, mapped.taker, mapped.miseres) == ((0, 1, 2, 3), 0, (3, 1))


@settings(deadline=None, max_examples=100)
@given(tarot_sheets(), st.sampled_from(EVERY_RULES))
def test_every_sheet_sums_to_zero_and_round_trips_under_any_rules(data, rules):
    data = {**data, "rules": rules.to_data()}
    parsed = parse_sheet(data)
    assert parsed.rules == rules
    result = score_sheet(parsed)
    assert all(sum(scores.values()) == 0 for scores in result["deals"])
    assert parse_sheet(sheet_to_data(parsed)) == parsed
