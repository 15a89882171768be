from __future__ import annotations

import copy
import json
from decimal import Decimal

import pytest

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import STAKE_TRUMPS, EscopetteDeal
from scorekeeper.scoring.sheet import (
    Sheet,
    load_sheet_text,
    parse_sheet,
    score_sheet,
    sheet_from_deals,
    sheet_to_data,
)
from scorekeeper.scoring.tarot import Contract, PassedDeal, TarotDeal

FOUR = ["Ana", "Ben", "Chloé", "Dan"]
SIX = ["Ana", "Ben", "Chloé", "Dan", "Eve", "Fay"]


def tarot(*deals: dict, players: list[str] = FOUR) -> dict:
    return {"game": "tarot", "players": players, "deals": list(deals)}


def garde_49(**extra) -> dict:
    return {"taker": "Ana", "contract": "garde", "bouts": 2, "points": 49, **extra}


def all_to(name: str, **others: str) -> dict:
    return {"stakes": {str(t): others.get(f"t{t}", name) for t in STAKE_TRUMPS}}


def escopette(*deals: dict, target: int = 100) -> dict:
    return {"game": "escopette", "players": FOUR, "target": target, "deals": list(deals)}


def error_of(data: object) -> ScoringError:
    with pytest.raises(ScoringError) as caught:
        parse_sheet(data)
    return caught.value


def test_a_tarot_sheet_is_parsed_into_deals():
    sheet = parse_sheet(tarot(garde_49(), {"passed": True}))
    assert sheet == Sheet(
        game="tarot",
        players=tuple(FOUR),
        target=None,
        deals=(
            TarotDeal(tuple(FOUR), "Ana", Contract.GARDE, 2, Decimal("49.0")),
            PassedDeal(tuple(FOUR)),
        ),
    )


def test_game_defaults_to_tarot():
    data = tarot(garde_49())
    del data["game"]
    assert parse_sheet(data).game == "tarot"


def test_a_tarot_sheet_scores_every_player_in_every_deal():
    result = score_sheet(parse_sheet(tarot(garde_49(), {"passed": True})))
    assert result == {
        "deals": [
            {"Ana": 198, "Ben": -66, "Chloé": -66, "Dan": -66},
            {"Ana": 0, "Ben": 0, "Chloé": 0, "Dan": 0},
        ],
        "totals": {"Ana": 198, "Ben": -66, "Chloé": -66, "Dan": -66},
    }
    assert list(result["deals"][0]) == FOUR
    assert "winner" not in result


def test_a_sixth_player_sitting_out_scores_0():
    sheet = parse_sheet(
        tarot(
            garde_49(partner="Ben", sitting_out=["Fay"]),
            {
                "taker": "Fay",
                "contract": "petite",
                "bouts": 2,
                "points": 41,
                "partner": "Fay",
                "sitting_out": ["Ana"],
            },
            {"passed": True, "sitting_out": ["Dan"]},
            players=SIX,
        )
    )
    result = score_sheet(sheet)
    assert result["deals"] == [
        {"Ana": 132, "Ben": 66, "Chloé": -66, "Dan": -66, "Eve": -66, "Fay": 0},
        {"Ana": 0, "Ben": -25, "Chloé": -25, "Dan": -25, "Eve": -25, "Fay": 100},
        dict.fromkeys(SIX, 0),
    ]
    assert result["totals"] == {
        "Ana": 132,
        "Ben": 41,
        "Chloé": -91,
        "Dan": -91,
        "Eve": -91,
        "Fay": 100,
    }


def test_a_sheet_with_no_deals_totals_zero():
    assert score_sheet(parse_sheet(tarot())) == {"deals": [], "totals": dict.fromkeys(FOUR, 0)}


def test_optional_keys_may_be_null():
    deal = garde_49(petit_au_bout=None, poignees=None, chelem=None, sitting_out=None, partner=None)
    assert score_sheet(parse_sheet(tarot(deal)))["totals"]["Ana"] == 198


def test_whole_floats_are_accepted_for_bouts():
    assert parse_sheet(tarot(garde_49(bouts=2.0))).deals[0].bouts == 2


def test_an_escopette_sheet_scores_and_names_no_winner_before_the_end():
    result = score_sheet(parse_sheet(escopette(all_to("Ana", t20="Ben"))))
    assert result == {
        "deals": [{"Ana": 40, "Ben": 20, "Chloé": 0, "Dan": 0}],
        "totals": {"Ana": 40, "Ben": 20, "Chloé": 0, "Dan": 0},
        "winner": None,
    }


def test_an_escopette_sheet_names_the_winner_once_the_game_has_ended():
    result = score_sheet(parse_sheet(escopette(all_to("Dan"), target=50)))
    assert result["winner"] == "Dan"
    assert result["totals"] == {"Ana": 0, "Ben": 0, "Chloé": 0, "Dan": 60}


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "sheet"),
        ("tarot", "sheet"),
        ({**tarot(), "colour": "red"}, "colour"),
        ({**tarot(), "game": "belote"}, "game"),
        ({**tarot(), "game": ["tarot"]}, "game"),
        ({"deals": []}, "players"),
        (tarot(players=["Ana", "Ben"]), "players"),
        (tarot(players=[*SIX, "Gus"]), "players"),
        (tarot(players=["Ana", "Ben", "Ana"]), "players"),
        (tarot(players=["Ana", "Ben", ""]), "players"),
        (tarot(players=["Ana", "Ben", " "]), "players"),
        (tarot(players=["Ana", "Ben", 3]), "players"),
        (tarot(players="Ana, Ben, Chloé"), "players"),
        ({**tarot(), "target": 100}, "target"),
        ({"players": FOUR}, "deals"),
        ({"players": FOUR, "deals": {"1": garde_49()}}, "deals"),
        ({**escopette(), "target": 75}, "target"),
        ({**escopette(), "target": True}, "target"),
        ({**escopette(), "target": "100"}, "target"),
        ({k: v for k, v in escopette().items() if k != "target"}, "target"),
        ({**escopette(), "players": ["Ana", "Ben", "Chloé"]}, "players"),
        ({**escopette(), "players": SIX}, "players"),
    ],
)
def test_a_sheet_level_problem_names_its_field_and_no_deal(data, field):
    error = error_of(data)
    assert (error.field, error.deal) == (field, None)


BAD_TAROT_DEALS = [
    ("not a deal", "deal"),
    (["Ana", "garde"], "deal"),
    (garde_49(points=93), "points"),
    (garde_49(points="49"), "points"),
    (garde_49(points=True), "points"),
    (garde_49(points=49.3), "points"),
    (garde_49(points=-1), "points"),
    (garde_49(bouts=3, points=10), "points"),
    (garde_49(bouts=2.5), "bouts"),
    (garde_49(bouts="2"), "bouts"),
    (garde_49(bouts=False), "bouts"),
    (garde_49(bouts=4), "bouts"),
    (garde_49(taker="Zoe"), "taker"),
    (garde_49(taker=1), "taker"),
    (garde_49(contract="gardé"), "contract"),
    (garde_49(contract=2), "contract"),
    (garde_49(partner="Ben"), "partner"),
    (garde_49(petit_au_bout="both"), "petit_au_bout"),
    (garde_49(petit_au_bout=True), "petit_au_bout"),
    (garde_49(poignees="simple"), "poignees"),
    (garde_49(poignees=["simple", "quadruple"]), "poignees"),
    (garde_49(poignees=[20]), "poignees"),
    (garde_49(poignees=["simple"] * 5), "poignees"),
    (garde_49(chelem="yes"), "chelem"),
    (garde_49(dealer="Zoé"), "dealer"),
    (garde_49(sitting_out=["Dan", "Chloé"]), "sitting_out"),
    (garde_49(sitting_out="Dan"), "sitting_out"),
    (garde_49(sitting_out=["Zoe"]), "sitting_out"),
    (garde_49(sitting_out=["Ana"]), "taker"),
    ({k: v for k, v in garde_49().items() if k != "points"}, "points"),
    ({k: v for k, v in garde_49().items() if k != "taker"}, "taker"),
    ({k: v for k, v in garde_49().items() if k != "contract"}, "contract"),
    ({k: v for k, v in garde_49().items() if k != "bouts"}, "bouts"),
    ({"passed": False}, "passed"),
    ({"passed": "yes"}, "passed"),
    ({"passed": True, "taker": "Ana"}, "taker"),
]


@pytest.mark.parametrize(("deal", "field"), BAD_TAROT_DEALS)
def test_a_bad_tarot_deal_names_the_deal_and_the_field(deal, field):
    error = error_of(tarot(garde_49(), garde_49(), deal))
    assert (error.field, error.deal) == (field, 3)


def test_a_bad_deal_reads_deal_then_field_then_message():
    error = error_of(tarot(garde_49(), garde_49(), garde_49(points=93)))
    assert str(error) == "deal 3: points: 93 is more than 91"


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        (garde_49(), "partner"),
        (garde_49(partner="Zoe"), "partner"),
        (garde_49(partner="Fay"), "partner"),
        (garde_49(partner="Ben", sitting_out=["Fay", "Fay"]), "sitting_out"),
        (garde_49(partner="Ben", sitting_out=["Fay", "Eve", "Dan", "Chloé"]), "sitting_out"),
        ({"passed": True}, "sitting_out"),
    ],
)
def test_a_six_player_sheet_checks_who_sits_out(deal, field):
    base = garde_49(partner="Ben", sitting_out=["Fay"])
    if "sitting_out" not in deal and deal.get("passed") is not True:
        deal = {**deal, "sitting_out": ["Fay"]}
    error = error_of(tarot(base, deal, players=SIX))
    assert (error.field, error.deal) == (field, 2)


def test_a_partner_sitting_out_is_refused():
    deal = garde_49(partner="Fay", sitting_out=["Fay"])
    error = error_of(tarot(deal, players=SIX))
    assert (error.field, error.deal) == ("partner", 1)
    assert "sitting out" in error.message


def test_five_players_without_a_partner_are_refused():
    error = error_of(tarot(garde_49(), players=SIX[:5]))
    assert (error.field, error.deal) == ("partner", 1)


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        ({"stakes": {"1": "Ana"}}, "stakes"),
        ({"stakes": {**all_to("Ana")["stakes"], "8": "Ben"}}, "stakes"),
        ({"stakes": {**all_to("Ana")["stakes"], "12": "Zoe"}}, "stakes"),
        ({"stakes": {**all_to("Ana")["stakes"], "12": 3}}, "stakes"),
        ({"stakes": ["Ana"] * 9}, "stakes"),
        ({}, "stakes"),
        ({**all_to("Ana"), "sitting_out": ["Dan"]}, "sitting_out"),
        (garde_49(), "taker"),
        ({"passed": True}, "passed"),
    ],
)
def test_a_bad_escopette_deal_names_the_deal_and_the_field(deal, field):
    error = error_of(escopette(all_to("Ben", t20="Ana"), deal))
    assert (error.field, error.deal) == (field, 2)


def test_an_escopette_deal_after_the_end_is_refused():
    error = error_of(escopette(all_to("Dan"), all_to("Ana"), target=50))
    assert str(error) == "deal 2: deal: the game ended after deal 1 (Dan won)"


def test_load_sheet_text_reads_json():
    text = json.dumps(tarot(garde_49()), ensure_ascii=False)
    assert load_sheet_text(text) == parse_sheet(tarot(garde_49()))
    assert load_sheet_text(text.encode("utf-8")) == parse_sheet(tarot(garde_49()))
    assert load_sheet_text("\ufeff" + text) == parse_sheet(tarot(garde_49()))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        '{"players": ["Ana", "Ben", "Chloé"], "deals": [}',
        '{"players": ["Ana", "Ben", "Chloé"], "deals": [], "deals": []}',
        '{"players": ["Ana", "Ben", "Chloé"], "deals": [{"points": NaN}]}',
        "[" * 100_000,
        b"\xff\xfe",
    ],
)
def test_text_that_is_not_json_is_refused(text):
    with pytest.raises(ScoringError) as caught:
        load_sheet_text(text)
    assert (caught.value.field, caught.value.deal) == ("sheet", None)
    assert caught.value.message.startswith("not valid")


def test_json_that_is_not_a_sheet_is_refused():
    with pytest.raises(ScoringError) as caught:
        load_sheet_text("[1, 2]")
    assert caught.value.field == "sheet"


FULL_TAROT = tarot(
    garde_49(partner="Ben", sitting_out=["Fay"], poignees=["simple", "double"]),
    {
        "taker": "Fay",
        "contract": "garde_contre",
        "bouts": 1,
        "points": 47.5,
        "partner": "Fay",
        "petit_au_bout": "attack",
        "chelem": "announced_failed",
        "sitting_out": ["Ana"],
    },
    {"passed": True, "sitting_out": ["Eve"]},
    players=SIX,
)


def test_sheet_to_data_writes_the_sheet_back():
    data = sheet_to_data(parse_sheet(FULL_TAROT))
    assert data == FULL_TAROT
    assert parse_sheet(data) == parse_sheet(FULL_TAROT)


def test_sheet_to_data_writes_an_escopette_sheet_back():
    original = escopette(all_to("Ana", t20="Ben"), all_to("Chloé", t1="Dan"))
    assert sheet_to_data(parse_sheet(original)) == original


def test_parsing_does_not_change_the_data():
    data = copy.deepcopy(FULL_TAROT)
    parse_sheet(data)
    assert data == FULL_TAROT


def test_sheet_from_deals_builds_a_validated_sheet():
    seated = ("Ana", "Ben", "Chloé", "Dan")
    sheet = sheet_from_deals(FOUR, [TarotDeal(seated, "Ana", "garde", 2, 49), PassedDeal(seated)])
    assert sheet == parse_sheet(tarot(garde_49(), {"passed": True}))


def test_sheet_from_deals_works_for_escopette():
    deal = EscopetteDeal(dict.fromkeys(STAKE_TRUMPS, "Ben"))
    sheet = sheet_from_deals(FOUR, [deal], game="escopette", target=50)
    assert score_sheet(sheet)["winner"] == "Ben"


def test_sheet_from_deals_names_a_bad_deal():
    seated = ("Ana", "Ben", "Chloé", "Dan")
    with pytest.raises(ScoringError) as caught:
        sheet_from_deals(FOUR, [PassedDeal(seated), TarotDeal(seated, "Ana", "garde", 2, 93)])
    assert (caught.value.field, caught.value.deal) == ("points", 2)


def test_score_sheet_refuses_what_is_not_a_sheet():
    with pytest.raises(ScoringError):
        score_sheet(FULL_TAROT)  # type: ignore[arg-type]
