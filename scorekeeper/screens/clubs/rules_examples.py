"""The worked examples of the rules page: one deal per rule, scored by ``scoring`` for each
of its choices, so that the page cannot drift from the way the app scores."""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from django.utils.translation import gettext as _

from scorekeeper.scoring.rules import RULE_KEYS, HouseRules
from scorekeeper.scoring.tarot import TarotDeal, score_deal
from scorekeeper.screens.rules_text import RULE_CHOICES

PLAYERS = ("Anne", "Bruno", "Chloé", "David")
TAKER = PLAYERS[0]


def _deal(contract: str, bouts: int, points: int, **bonuses: object) -> TarotDeal[str]:
    return TarotDeal(
        seated=PLAYERS,
        taker=TAKER,
        contract=contract,
        bouts=bouts,
        points=Decimal(points),
        **bonuses,  # type: ignore[arg-type]
    )


#: One deal per rule, chosen so that each of the rule's choices scores it differently.
DEALS: dict[str, TarotDeal[str]] = {
    "multipliers": _deal("garde_contre", 2, 51),
    "poignees": _deal("garde", 1, 56, poignees=("double",)),
    "poignee_multiplied": _deal("garde_sans", 3, 36, poignees=("simple",)),
    "petit_au_bout": _deal("garde", 2, 45, petit_au_bout="defense"),
    "misere": _deal("petite", 1, 51, miseres=("Chloé",)),
}


def _story(rule: str) -> str:
    """The example's deal in words."""
    taker = TAKER
    if rule == "multipliers":
        return _(
            "%(taker)s plays a garde contre against three and makes it by 10 "
            "(51 points with 2 bouts)."
        ) % {"taker": taker}
    if rule == "poignees":
        return _(
            "%(taker)s plays a garde and makes it by 5 (56 points with 1 bout); "
            "a double poignée was shown."
        ) % {"taker": taker}
    if rule == "poignee_multiplied":
        return _(
            "%(taker)s plays a garde sans and makes it by 0 (36 points with 3 bouts); "
            "a simple poignée was shown."
        ) % {"taker": taker}
    if rule == "petit_au_bout":
        return _(
            "%(taker)s plays a garde and makes it by 4 (45 points with 2 bouts), but the "
            "defence leads the Petit to the last trick."
        ) % {"taker": taker}
    return _(
        "%(taker)s plays a petite and makes it by 0 (51 points with 1 bout); "
        "%(announcer)s announced a misère."
    ) % {"taker": taker, "announcer": "Chloé"}


@dataclass(frozen=True)
class ExampleRow:
    label: str
    scores: tuple[int, ...]  # in the order of PLAYERS
    current: bool  # the club's choice

    @property
    def pairs(self) -> list[tuple[str, int]]:
        return list(zip(PLAYERS, self.scores, strict=True))


@dataclass(frozen=True)
class Example:
    rule: str
    story: str
    players: tuple[str, ...]
    rows: tuple[ExampleRow, ...]


def example(rule: str, current: HouseRules) -> Example:
    """The rule's deal scored by each of its choices, the other rules as the club has them."""
    rows = []
    for value, label in RULE_CHOICES[rule]:
        rules = replace(current, **{rule: value})
        deal = DEALS[rule] if rules.misere else replace(DEALS[rule], miseres=())
        scores = score_deal(deal, rules)
        rows.append(
            ExampleRow(
                label=str(label),
                scores=tuple(scores[player] for player in PLAYERS),
                current=getattr(current, rule) == value,
            )
        )
    return Example(rule=rule, story=_story(rule), players=PLAYERS, rows=tuple(rows))


def examples(current: HouseRules) -> dict[str, Example]:
    return {rule: example(rule, current) for rule in RULE_KEYS}
