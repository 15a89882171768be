"""The CSV's rules and misères cells, both ways."""

from __future__ import annotations

import itertools

import pytest

from scorekeeper.exchange.csv_rules import (
    group_rules,
    miseres_cell,
    miseres_from_cell,
    rules_cell,
    rules_from_cell,
)
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.rules import (
    MISERE_VALUES,
    MULTIPLIER_TABLES,
    PETIT_AU_BOUT_MODES,
    POIGNEE_TABLES,
    HouseRules,
    rules_from_data,
)

EVERY_RULES = [
    HouseRules(*values)
    for values in itertools.product(
        MULTIPLIER_TABLES, POIGNEE_TABLES, (False, True), PETIT_AU_BOUT_MODES, MISERE_VALUES
    )
]


@pytest.mark.parametrize("rules", EVERY_RULES, ids=rules_cell)
def test_every_combination_of_rules_reads_back_from_its_cell(rules: HouseRules) -> None:
    assert rules_from_data(rules_from_cell(rules_cell(rules))) == rules


def test_the_fft_rules_are_an_empty_cell() -> None:
    assert rules_cell(HouseRules()) == ""
    assert rules_from_cell("") == {}


@pytest.mark.parametrize("text", ["misere=15", "colour=red", "misere", "poignee_multiplied=yes"])
def test_a_cell_that_is_not_a_set_of_rules_is_refused(text: str) -> None:
    with pytest.raises(ScoringError) as refused:
        rules_from_cell(text)
    assert refused.value.field == "rules"


def test_the_rows_of_a_game_must_agree_and_a_refusal_names_the_row() -> None:
    assert group_rules([(2, "misere=10"), (3, " misere=10 ")]) == {"misere": 10}
    with pytest.raises(ScoringError) as refused:
        group_rules([(2, "misere=10"), (3, "")])
    assert refused.value.row == 3  # type: ignore[attr-defined]


def test_misere_names_with_a_comma_go_as_a_json_list() -> None:
    names = {1: "Ana", 2: "Ben, le grand", 3: "Chloé"}
    assert miseres_cell([1, 3], names) == "Ana, Chloé"
    assert miseres_from_cell("Ana, Chloé") == ["Ana", "Chloé"]
    cell = miseres_cell([2, 3], names)
    assert miseres_from_cell(cell) == ["Ben, le grand", "Chloé"]
