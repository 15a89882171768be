"""The house rules in the club archive: the club's and each evening's, as the deal sheet's
``"rules"`` object, written only when they are not the FFT rules (an FFT club's archive is
as it always was)."""

from __future__ import annotations

from typing import Any

from scorekeeper.models import Club, Evening
from scorekeeper.scoring.rules import rules_from_data


def with_rules(owner: Club | Evening) -> dict[str, Any]:
    """``{"rules": {...}}`` for a club or an evening with house rules, ``{}`` for the FFT's."""
    rules = rules_from_data(owner.rules).to_data()
    return {"rules": rules} if rules else {}


def read_rules(data: dict[str, Any]) -> dict[str, Any]:
    """A club's or an evening's "rules" from the archive, checked (a ScoringError if wrong)."""
    return rules_from_data(data.get("rules", {})).to_data()
