"""The house rules in the app's CSV, both ways, written only when some evening is not FFT:
"rules" (``key=value`` words of what differs, ``multipliers=classic misere=10``) and
"misères" (who announced one, separated by commas, or a JSON list).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.rules import RULE_KEYS, HouseRules, rules_from_data


def rules_headers() -> dict[str, str]:
    return {"rules": _("Rules"), "miseres": _("Misères")}


def _word(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def rules_cell(rules: HouseRules) -> str:
    """``multipliers=classic misere=10``: the rules that differ from the FFT's ("" for FFT)."""
    return " ".join(f"{key}={_word(value)}" for key, value in rules.to_data().items())


def _value(key: str, text: str) -> object:
    if key == "poignee_multiplied":
        return {"true": True, "false": False}.get(text.lower(), text)
    if key == "misere":
        return int(text) if text.isascii() and text.isdigit() else text
    return text


def rules_from_cell(text: str) -> dict[str, Any]:
    """A rules cell back into the sheet's "rules" object (checked by ``rules_from_data``)."""
    data: dict[str, Any] = {}
    for word in text.split():
        key, sep, value = word.partition("=")
        if not sep or key not in RULE_KEYS:
            raise ScoringError.coded(
                "rules",
                "unknown_key",
                "not a key of %(where)s (expected %(keys)s)",
                where="the rules",
                keys=", ".join(RULE_KEYS),
            )
        data[key] = _value(key, value)
    rules_from_data(data)  # a value that is not a choice is refused here, by its rule
    return data


def miseres_cell(players: Sequence[int], names: dict[int, str]) -> str:
    announced = [names.get(pk, "") for pk in players]
    if any("," in name for name in announced):
        return json.dumps(announced, ensure_ascii=False)
    return ", ".join(announced)


def miseres_from_cell(text: str) -> list[str]:
    text = text.strip()
    if text.startswith("["):
        try:
            names = json.loads(text)
        except ValueError:
            names = None
        if isinstance(names, list) and all(isinstance(name, str) for name in names):
            return names
    return [name.strip() for name in text.split(",") if name.strip()]


def group_rules(cells: Sequence[tuple[int, str]]) -> dict[str, Any]:
    """A game's rules from its rows' cells, (row number, text): all alike, empty for FFT."""
    first = " ".join(cells[0][1].split())
    for row, text in cells:
        if " ".join(text.split()) != first:
            error = ScoringError.coded(
                "rules",
                "rules_differ",
                "%(value)s: every deal of a game is scored by the same rules",
                value=text or "FFT",
            )
            error.row = row  # type: ignore[attr-defined]
            raise error
    try:
        return rules_from_cell(first)
    except ScoringError as error:
        error.row = cells[0][0]  # type: ignore[attr-defined]
        raise
