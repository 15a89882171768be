"""French Tarot: the value of a deal and how the players share it (rules.md §2-§5), by the
table's ``HouseRules`` (the FFT rules unless told)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Generic, TypeVar

from scorekeeper.scoring.deal_checks import (
    CHELEM_VALUES,
    PETIT_AU_BOUT_SIGN,
    card_points,
    check_bouts,
    check_bouts_fit,
    check_chelem,
    check_partner,
    check_petit_au_bout,
    check_seated,
    checked_miseres,
    checked_poignees,
    not_seated,
    one_of,
    seated_count_error,
)
from scorekeeper.scoring.errors import ScoringError, distinct_players
from scorekeeper.scoring.rules import (
    FFT_RULES,
    HouseRules,
    misere_payments,
    to_rules,
)

P = TypeVar("P", bound=Hashable)


class Contract(StrEnum):
    """The four contracts, from the lowest bid up."""

    PETITE = "petite"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"

    def __str__(self) -> str:
        return self.value


TARGETS: dict[int, int] = {0: 56, 1: 51, 2: 41, 3: 36}
CHIEN_SIZE: dict[int, int] = {3: 6, 4: 6, 5: 3}
#: Trumps to show for each poignée, by the number of players seated.
POIGNEE_TRUMPS: dict[int, dict[str, int]] = {
    3: {"simple": 13, "double": 15, "triple": 18},
    4: {"simple": 10, "double": 13, "triple": 15},
    5: {"simple": 8, "double": 10, "triple": 13},
}


def to_contract(value: object) -> Contract:
    """The Contract named by value ("garde" or Contract.GARDE)."""
    if isinstance(value, Contract):
        return value
    if isinstance(value, str):
        for contract in Contract:
            if contract.value == value:
                return contract
    raise ScoringError.coded(
        "contract",
        "not_contract",
        "%(value)s is not a contract (%(options)s)",
        value=repr(value),
        options=one_of(c.value for c in Contract),
    )


def shares(seated_count: int, alone: bool = True) -> tuple[int, int]:
    """(taker, partner) factors of V; each defender pays V."""
    if isinstance(seated_count, bool) or seated_count not in CHIEN_SIZE:
        raise seated_count_error(repr(seated_count))
    if seated_count == 5:
        return (4, 0) if alone else (2, 1)
    if not alone:
        raise ScoringError("partner", f"no partner is called with {seated_count} players seated")
    return (seated_count - 1, 0)


@dataclass(frozen=True)
class TarotDeal(Generic[P]):
    """A deal that was played: what the taker bid and what the attack took."""

    seated: tuple[P, ...]
    taker: P
    contract: Contract | str
    bouts: int
    points: Decimal | float | int | str
    partner: P | None = None
    petit_au_bout: str | None = None
    poignees: tuple[str, ...] = ()
    chelem: str | None = None
    miseres: tuple[P, ...] = ()  # players who announced a misère (house rule "misere")

    @property
    def alone(self) -> bool:
        """True unless another player was called as partner."""
        return self.partner is None or self.partner == self.taker


@dataclass(frozen=True)
class PassedDeal(Generic[P]):
    """A deal where everyone passed: redealt, 0 for all."""

    seated: tuple[P, ...]


@dataclass(frozen=True)
class _Checked:
    seated: tuple[Hashable, ...]
    contract: Contract
    bouts: int
    points: Decimal
    partner: Hashable | None
    petit_au_bout: str | None
    poignees: tuple[str, ...]
    chelem: str | None
    miseres: tuple[Hashable, ...]


def _check(deal: object, rules: HouseRules = FFT_RULES) -> _Checked:
    if not isinstance(deal, TarotDeal):
        raise ScoringError.coded(
            "deal", "not_tarot_deal", "%(value)s is not a tarot deal", value=repr(deal)
        )
    seated = check_seated(deal.seated)
    if deal.taker not in seated:
        raise not_seated("taker", deal.taker)
    contract = to_contract(deal.contract)
    bouts = check_bouts(deal.bouts)
    points = card_points(deal.points)
    check_bouts_fit(bouts, points)
    check_partner(deal.partner, seated)
    check_petit_au_bout(deal.petit_au_bout, bouts)
    poignees = checked_poignees(deal.poignees, len(seated))
    check_chelem(deal.chelem)
    miseres = checked_miseres(deal.miseres, seated, rules)
    return _Checked(
        seated,
        contract,
        bouts,
        points,
        deal.partner,
        deal.petit_au_bout,
        poignees,
        deal.chelem,
        miseres,
    )


def validate_deal(deal: TarotDeal[P] | PassedDeal[P], rules: HouseRules = FFT_RULES) -> None:
    """Raise ScoringError, naming the field, unless the deal passes every check of §5.

    Misères are refused unless the rules score them (``rules.misere`` 10 or 20).
    """
    rules = to_rules(rules)
    if isinstance(deal, PassedDeal):
        check_seated(deal.seated)
    else:
        _check(deal, rules)


@dataclass(frozen=True)
class DealOutcome(Generic[P]):
    """How a deal went: V is what each defender pays the attack."""

    target: int
    attack_points: Decimal
    made: bool
    gap: int
    multiplier: int
    value: int
    scores: dict[P, int] = field(default_factory=dict)
    #: Each seated player's misère balance, already counted in ``scores`` ({} when none).
    miseres: dict[P, int] = field(default_factory=dict)


def deal_outcome(deal: TarotDeal[P], rules: HouseRules = FFT_RULES) -> DealOutcome[P]:
    """Score a played deal: V = s*((25+D)*m + P) + a*10*m + C, shared per §4.

    The rules choose m, P (and whether P is multiplied by m), who gets the petit au bout
    (a, or s as a poignée) and the misère payments added to the scores.
    """
    rules = to_rules(rules)
    checked = _check(deal, rules)
    target = TARGETS[checked.bouts]
    points = checked.points
    made = points >= target
    gap = math.ceil(abs(points - target))
    multiplier = rules.multiplier(checked.contract)
    sign = 1 if made else -1
    poignees = sum(rules.poignee_value(p) for p in checked.poignees)
    if rules.poignee_multiplied:
        poignees *= multiplier
    petit = _petit_sign(checked.petit_au_bout, sign, rules)
    chelem = CHELEM_VALUES.get(checked.chelem or "", 0)
    value = sign * ((25 + gap) * multiplier + poignees) + petit * 10 * multiplier + chelem
    scores = _shared(deal, len(checked.seated), value)
    miseres: dict[P, int] = {}
    if checked.miseres:
        miseres = misere_payments(deal.seated, checked.miseres, rules.misere)
        scores = {player: score + miseres[player] for player, score in scores.items()}
    return DealOutcome(
        target=target,
        attack_points=points,
        made=made,
        gap=gap,
        multiplier=multiplier,
        value=value,
        scores=scores,
        miseres=miseres,
    )


def _petit_sign(petit_au_bout: str | None, sign: int, rules: HouseRules) -> int:
    """+1 when the attack gets the petit au bout's bonus, -1 for the defence, 0 for none."""
    if petit_au_bout is None:
        return 0
    if rules.petit_au_bout == "deal_winner":
        return sign
    return PETIT_AU_BOUT_SIGN[petit_au_bout]


def _shared(deal: TarotDeal[P], seated_count: int, value: int) -> dict[P, int]:
    alone = deal.alone
    taker_share, partner_share = shares(seated_count, alone)
    scores: dict[P, int] = {}
    for player in deal.seated:
        if player == deal.taker:
            scores[player] = taker_share * value
        elif not alone and player == deal.partner:
            scores[player] = partner_share * value
        else:
            scores[player] = -value
    return scores


def score_deal(deal: TarotDeal[P] | PassedDeal[P], rules: HouseRules = FFT_RULES) -> dict[P, int]:
    """Each seated player's score for the deal (0 for all when everyone passed)."""
    if isinstance(deal, PassedDeal):
        to_rules(rules)
        return {player: 0 for player in check_seated(deal.seated)}
    return deal_outcome(deal, rules).scores


def _players(players: object) -> tuple[Hashable, ...]:
    return distinct_players(players, "players")


def running_totals(
    players: Sequence[P], deal_scores: Iterable[Mapping[P, int]]
) -> list[dict[P, int]]:
    """Each player's total after each deal (a player missing from a deal scores 0)."""
    current: dict[P, int] = {player: 0 for player in _players(players)}  # type: ignore[misc]
    result: list[dict[P, int]] = []
    for number, scores in enumerate(deal_scores, start=1):
        if not isinstance(scores, Mapping):
            raise ScoringError("scores", f"{scores!r} is not a mapping of scores", number)
        for player, score in scores.items():
            try:
                known = player in current
            except TypeError:
                known = False
            if not known:
                raise ScoringError("scores", f"{player} is not one of the players", number)
            if isinstance(score, bool) or not isinstance(score, int):
                raise ScoringError("scores", f"{score!r} is not a whole number", number)
            current[player] += score
        result.append(dict(current))
    return result


def line_totals(lines: Sequence[tuple[Hashable, P, int]]) -> list[int]:
    """Each score line's running total: the player's total after that deal.

    ``lines``: a game's score lines (deal, player, score), the deals in their order, a
    deal's lines together. What the score rows keep (``DealScore.total``), by
    ``running_totals``."""
    if not lines:
        return []
    deals: dict[Hashable, dict[P, int]] = {}
    for deal, player, score in lines:
        deals.setdefault(deal, {})[player] = score
    players = list(dict.fromkeys(player for _deal, player, _score in lines))
    after = dict(zip(deals, running_totals(players, deals.values()), strict=True))
    return [after[deal][player] for deal, player, _score in lines]


def totals(players: Sequence[P], deal_scores: Iterable[Mapping[P, int]]) -> dict[P, int]:
    """Each player's total over all the deals."""
    running = running_totals(players, deal_scores)
    return running[-1] if running else {player: 0 for player in _players(players)}  # type: ignore[misc]
