"""House rules: the table's variations on the FFT scoring, as one frozen value
(``HouseRules()`` is ``FFT_RULES``), and the value tables that depend on a rule."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.sheet_json import check_keys, show

#: Each contract's multiplier, by the "multipliers" rule.
MULTIPLIER_TABLES: dict[str, dict[str, int]] = {
    "fft": {"petite": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6},
    "classic": {"petite": 1, "garde": 2, "garde_sans": 3, "garde_contre": 4},
}
#: Each poignée's value, by the "poignees" rule.
POIGNEE_TABLES: dict[str, dict[str, int]] = {
    "20-30-40": {"simple": 20, "double": 30, "triple": 40},
    "20-40-60": {"simple": 20, "double": 40, "triple": 60},
}
#: Who gets the petit au bout's 10 x multiplier: the side that led the Petit to the last
#: trick (FFT), or the side that wins the deal, as a poignée.
PETIT_AU_BOUT_MODES = ("last_trick", "deal_winner")
#: What each other seated player pays each player who announced a misère (0: no misère).
MISERE_VALUES = (0, 10, 20)

P = TypeVar("P", bound=Hashable)


def _not_a_choice(rule: str, value: object, options: tuple[object, ...]) -> ScoringError:
    return ScoringError.coded(
        "rules",
        "rule_choice",
        "%(value)s is not a choice for %(rule)s (%(options)s)",
        value=show(value),
        rule=rule,
        options=", ".join(show(option) for option in options),
    )


#: Each rule's choices.
RULE_OPTIONS: dict[str, tuple[object, ...]] = {
    "multipliers": tuple(MULTIPLIER_TABLES),
    "poignees": tuple(POIGNEE_TABLES),
    "poignee_multiplied": (False, True),
    "petit_au_bout": PETIT_AU_BOUT_MODES,
    "misere": MISERE_VALUES,
}
RULE_KEYS = tuple(RULE_OPTIONS)  # the rules, in the order they are written


@dataclass(frozen=True)
class HouseRules:
    """How a table scores its deals; the defaults are the FFT rules (rules.md §2-§3)."""

    multipliers: str = "fft"
    poignees: str = "20-30-40"
    poignee_multiplied: bool = False
    petit_au_bout: str = "last_trick"
    misere: int = 0

    def __post_init__(self) -> None:
        for rule in RULE_KEYS:
            value = getattr(self, rule)
            options = RULE_OPTIONS[rule]
            # True == 1 and 1.0 == 1 in Python: a rule's value must also have its option's type.
            if not any(type(value) is type(option) and value == option for option in options):
                raise _not_a_choice(rule, value, options)

    def multiplier(self, contract: str) -> int:
        """The contract's multiplier ("garde" or Contract.GARDE)."""
        return MULTIPLIER_TABLES[self.multipliers][str(contract)]

    def poignee_value(self, poignee: str) -> int:
        """A poignée's value before any multiplier."""
        return POIGNEE_TABLES[self.poignees][poignee]

    def to_data(self) -> dict[str, Any]:
        """The sheet's "rules" object: only the rules that differ from the FFT ({} for FFT)."""
        return {
            rule.name: getattr(self, rule.name)
            for rule in fields(self)
            if getattr(self, rule.name) != rule.default
        }


FFT_RULES = HouseRules()


def to_rules(value: object) -> HouseRules:
    """The value itself when it is a HouseRules; a ScoringError otherwise."""
    if not isinstance(value, HouseRules):
        raise ScoringError("rules", f"{value!r} is not a set of house rules")
    return value


def rules_from_data(data: object) -> HouseRules:
    """House rules from a sheet's "rules" object; a key left out keeps the FFT rule."""
    if not isinstance(data, dict):
        raise ScoringError.coded(
            "rules", "not_object", "%(value)s is not a JSON object", value=show(data)
        )
    check_keys(data, RULE_KEYS, "the rules")
    return HouseRules(**data)


def misere_payments(seated: Sequence[P], announcers: Sequence[P], value: int) -> dict[P, int]:
    """Each seated player's misère balance: every other seated player pays each announcer.

    An announcer receives ``value`` from each of the other seated players and pays ``value``
    to each other announcer; the balances sum to zero. Not multiplied, whoever won the deal.
    """
    balances = {player: 0 for player in seated}
    for announcer in announcers:
        for player in seated:
            if player != announcer:
                balances[player] -= value
                balances[announcer] += value
    return balances
