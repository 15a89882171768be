"""`manage.py score_deals` scores a version 3 sheet by its house rules, one at a time and
together (each expected number worked by hand in the comment beside it)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.scorekeeper.exchange.test_score_deals_command import run, write

FOUR = ["Ana", "Ben", "Chloé", "Dan"]


def garde(**extra) -> dict:
    return {"taker": "Ana", "contract": "garde", "bouts": 2, "points": 49, **extra}


def sheet(rules: dict, *deals: dict) -> dict:
    return {"version": 3, "players": FOUR, "rules": rules, "deals": list(deals)}


def row(ana: int, others: int) -> dict[str, int]:
    return {"Ana": ana, "Ben": others, "Chloé": others, "Dan": others}


def scored(tmp_path: Path, data: dict) -> dict:
    out = StringIO()
    call_command("score_deals", write(tmp_path, data), stdout=out)
    return json.loads(out.getvalue())


EACH_RULE = [
    # garde sans, 2 bouts, 49: made by 8, V = 33 x 3 (classic) = 99.
    pytest.param(
        {"multipliers": "classic"}, garde(contract="garde_sans"), row(297, -99), id="classic"
    ),
    # garde, 2 bouts, 49, a double poignée: V = 66 + 40 = 106.
    pytest.param(
        {"poignees": "20-40-60"}, garde(poignees=["double"]), row(318, -106), id="20-40-60"
    ),
    # garde, 2 bouts, 49, a simple poignée times 2: V = 66 + 40 = 106.
    pytest.param(
        {"poignee_multiplied": True}, garde(poignees=["simple"]), row(318, -106), id="multiplied"
    ),
    # garde, 1 bout, 48: failed by 3; the attack's petit au bout goes to the defence:
    # V = -56 - 20 = -76.
    pytest.param(
        {"petit_au_bout": "deal_winner"},
        garde(bouts=1, points=48, petit_au_bout="attack"),
        row(-228, 76),
        id="petit-to-winner",
    ),
    # garde, 2 bouts, 49 (Ana +198, others -66); Ben's misère of 10: Ben +30, others -10.
    pytest.param(
        {"misere": 10},
        garde(miseres=["Ben"]),
        {"Ana": 188, "Ben": -36, "Chloé": -76, "Dan": -76},
        id="misere-10",
    ),
]


@pytest.mark.parametrize(("rules", "deal", "expected"), EACH_RULE)
def test_each_house_rule_alone_gives_the_scores_worked_by_hand(tmp_path, rules, deal, expected):
    result = scored(tmp_path, sheet(rules, deal))
    assert result["deals"] == [expected]
    assert result["totals"] == expected
    without_miseres = {key: value for key, value in deal.items() if key != "miseres"}
    fft = scored(tmp_path, sheet({}, without_miseres))["deals"][0]
    assert fft != expected  # the same deal by the FFT rules scores otherwise


def test_several_rules_together(tmp_path):
    rules = {"multipliers": "classic", "poignee_multiplied": True, "misere": 20}
    # Deal 1: garde sans, 2 bouts, 49, a simple poignée: V = 33 x 3 + 20 x 3 = 159; Chloé's
    # misère of 20: Chloé +60, the others -20.
    # Deal 2: garde contre, 3 bouts, 36 (made by 0), petit au bout to the attack:
    # V = 25 x 4 + 10 x 4 = 140.
    data = sheet(
        rules,
        garde(contract="garde_sans", poignees=["simple"], miseres=["Chloé"]),
        {
            "taker": "Dan",
            "contract": "garde_contre",
            "bouts": 3,
            "points": 36,
            "petit_au_bout": "attack",
        },
    )
    result = scored(tmp_path, data)
    assert result["deals"] == [
        {"Ana": 477 - 20, "Ben": -159 - 20, "Chloé": -159 + 60, "Dan": -159 - 20},
        {"Ana": -140, "Ben": -140, "Chloé": -140, "Dan": 420},
    ]
    assert result["totals"] == {"Ana": 317, "Ben": -319, "Chloé": -239, "Dan": 241}


def test_the_command_line_prints_the_house_rules_scores(tmp_path):
    done = run([write(tmp_path, sheet({"misere": 20}, garde(miseres=["Ben", "Chloé"])))])
    assert (done.returncode, done.stderr) == (0, b"")
    # Ben and Chloé each get 20 from three players and pay 20 to each other: +40 each.
    assert json.loads(done.stdout.decode("utf-8"))["totals"] == {
        "Ana": 158,
        "Ben": -26,
        "Chloé": -26,
        "Dan": -106,
    }


@pytest.mark.parametrize(
    ("data", "line"),
    [
        pytest.param(
            {"players": FOUR, "deals": [garde(miseres=["Ben"])]},
            "deal 1: miseres: these rules score no misère (the rules' misere is 0, not 10 or 20)",
            id="misere-without-the-rule",
        ),
        pytest.param(
            sheet({"multipliers": "fast"}, garde()),
            'rules: "fast" is not a choice for multipliers ("fft", "classic")',
            id="unknown-multipliers",
        ),
        pytest.param(
            {
                "game": "escopette",
                "players": FOUR,
                "target": 50,
                "rules": {"misere": 10},
                "deals": [],
            },
            "rules: l'escopette is scored by its stakes: it has no rules",
            id="escopette-rules",
        ),
    ],
)
def test_bad_house_rules_exit_2_with_one_line(tmp_path, data, line):
    done = run([write(tmp_path, data)])
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode("utf-8").splitlines() == [line]


def test_bad_house_rules_are_said_in_french_with_lang(tmp_path):
    done = run([write(tmp_path, sheet({"misere": 5}, garde())), "--lang", "fr"])
    assert done.returncode == 2
    text = done.stderr.decode("utf-8")
    assert text.count("\n") == 1
    assert "misere" in text and "(0, 10, 20)" in text
