"""Which evening each imported game goes to, and the house rules of that evening.

An evening has one set of rules (``Evening.rules``): its games of French Tarot share them,
and L'escopette has none. Games of one evening in the file (same ``SheetEntry.evening``) stay
together, the evening taking its first tarot game's rules; a tarot game by other rules goes
to an evening of its own, the same day. Pure planning over the file: no database.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from scorekeeper.scoring.rules import FFT_RULES, HouseRules


class _Entry(Protocol):
    date: Any
    place: str
    evening: int | None


class _Plan(Protocol):
    kind: str
    rules: HouseRules


EveningKey = tuple[Hashable, ...] | None


def evening_keys(
    entries: Sequence[_Entry], plans: Sequence[_Plan]
) -> tuple[list[EveningKey], dict[EveningKey, HouseRules]]:
    """Each entry's evening key (None: an evening of its own) and each key's rules."""
    rules: dict[EveningKey, HouseRules] = {}
    for entry, plan in zip(entries, plans, strict=True):
        if entry.evening is not None and plan.kind == "tarot":
            rules.setdefault((entry.date, entry.place, entry.evening), plan.rules)
    keys: list[EveningKey] = []
    for entry, plan in zip(entries, plans, strict=True):
        key: EveningKey = None
        if entry.evening is not None:
            key = (entry.date, entry.place, entry.evening)
            if plan.kind == "tarot" and rules[key] != plan.rules:
                key = (*key, repr(plan.rules))
                rules.setdefault(key, plan.rules)
        keys.append(key)
    return keys, rules


def rules_for(key: EveningKey, plan: _Plan, rules: dict[EveningKey, HouseRules]) -> HouseRules:
    """The rules of the evening a game creates."""
    if key is not None and key in rules:
        return rules[key]
    return plan.rules if plan.kind == "tarot" else FFT_RULES
