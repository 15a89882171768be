from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[3]
FOUR = ["Ana", "Ben", "Chloé", "Dan"]
FIVE = [*FOUR, "Eve"]
STAKES = ("1", "2", "3", "4", "5", "6", "7", "12", "20")

TAROT_SHEET = {
    "players": FOUR,
    "deals": [
        {"taker": "Ana", "contract": "garde", "bouts": 2, "points": 49},
        {"passed": True},
        {"taker": "Chloé", "contract": "petite", "bouts": 1, "points": 51},
    ],
}
ESCOPETTE_SHEET = {
    "game": "escopette",
    "players": FOUR,
    "target": 50,
    "deals": [
        {"stakes": {s: "Ben" if s in ("20", "12") else "Dan" for s in STAKES}},
        {"stakes": {s: "Ben" if s in ("20", "7") else "Chloé" for s in STAKES}},
    ],
}


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ}
    env.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    return subprocess.run(
        [sys.executable, "manage.py", "score_deals", *args],
        cwd=ROOT,
        env=env,
        input=None if stdin is None else stdin.encode("utf-8"),
        capture_output=True,
        timeout=60,
        check=False,
    )


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "sheet.json"
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_tarot_sheet_prints_every_deal_and_the_totals(tmp_path):
    done = run([write(tmp_path, TAROT_SHEET)])
    assert (done.returncode, done.stderr) == (0, b"")
    assert "Chloé".encode() in done.stdout
    assert json.loads(done.stdout.decode("utf-8")) == {
        "deals": [
            {"Ana": 198, "Ben": -66, "Chloé": -66, "Dan": -66},
            {"Ana": 0, "Ben": 0, "Chloé": 0, "Dan": 0},
            {"Ana": -25, "Ben": -25, "Chloé": 75, "Dan": -25},
        ],
        "totals": {"Ana": 173, "Ben": -91, "Chloé": 9, "Dan": -91},
    }
    assert done.stdout.decode("utf-8").count("\n") == 1


def test_an_escopette_sheet_prints_the_winner(tmp_path):
    done = run([write(tmp_path, ESCOPETTE_SHEET)])
    assert done.returncode == 0
    assert json.loads(done.stdout.decode("utf-8")) == {
        "deals": [
            {"Ana": 0, "Ben": 32, "Chloé": 0, "Dan": 28},
            {"Ana": 0, "Ben": 27, "Chloé": 33, "Dan": 0},
        ],
        "totals": {"Ana": 0, "Ben": 59, "Chloé": 33, "Dan": 28},
        "winner": "Ben",
    }


def test_a_dash_reads_the_sheet_from_standard_input():
    done = run(["-"], stdin=json.dumps(TAROT_SHEET, ensure_ascii=False))
    assert done.returncode == 0
    assert json.loads(done.stdout.decode("utf-8"))["totals"]["Chloé"] == 9


def test_call_command_writes_the_json_to_its_stdout(tmp_path):
    out = StringIO()
    call_command("score_deals", write(tmp_path, TAROT_SHEET), stdout=out)
    assert json.loads(out.getvalue())["totals"]["Ana"] == 173


def test_call_command_exits_with_status_2_on_an_invalid_sheet(tmp_path):
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command("score_deals", write(tmp_path, "nope"), stdout=out, stderr=err)
    assert caught.value.code == 2
    assert out.getvalue() == ""
    assert err.getvalue().startswith("sheet: not valid JSON")


FIVE_WITHOUT_PARTNER = {
    "players": FIVE,
    "deals": [{"taker": "Ana", "contract": "garde", "bouts": 2, "points": 49}],
}
REFUSALS = [
    pytest.param("{not json", "sheet: not valid JSON: ", id="not-json"),
    pytest.param(
        {
            **TAROT_SHEET,
            "deals": [*TAROT_SHEET["deals"], {**TAROT_SHEET["deals"][0], "points": 93}],
        },
        "deal 4: points: 93 is more than 91",
        id="points-93",
    ),
    pytest.param(
        {**TAROT_SHEET, "deals": [{**TAROT_SHEET["deals"][0], "taker": "Zoé"}]},
        "deal 1: taker: Zoé is not one of the players",
        id="bad-taker",
    ),
    pytest.param(FIVE_WITHOUT_PARTNER, "deal 1: partner: ", id="five-without-partner"),
    pytest.param(
        {**ESCOPETTE_SHEET, "deals": [*ESCOPETTE_SHEET["deals"], ESCOPETTE_SHEET["deals"][0]]},
        "deal 3: deal: the game ended after deal 2 (Ben won)",
        id="escopette-deal-after-the-end",
    ),
]


@pytest.mark.parametrize(("sheet", "expected"), REFUSALS)
def test_an_invalid_sheet_exits_2_with_one_line_naming_deal_and_field(tmp_path, sheet, expected):
    done = run([write(tmp_path, sheet)])
    assert done.returncode == 2
    assert done.stdout == b""
    lines = done.stderr.decode("utf-8").splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(expected)
    assert "CommandError" not in lines[0]


def test_an_invalid_sheet_on_standard_input_is_refused_the_same_way():
    done = run(["-"], stdin="[]")
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode("utf-8").splitlines() == ["sheet: a deal sheet is a JSON object"]


def test_a_file_that_cannot_be_read_is_refused(tmp_path):
    done = run([str(tmp_path / "missing.json")])
    assert (done.returncode, done.stdout) == (2, b"")
    lines = done.stderr.decode("utf-8").splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("sheet: cannot read ")
