"""French Tarot: the value of a deal and how the players share it (rules.md §2-§5)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Generic, TypeVar

from scorekeeper.scoring.cards import CARD_VALUES, DECK_TOTAL
from scorekeeper.scoring.errors import ScoringError, distinct_players, show_points, to_points

P = TypeVar("P", bound=Hashable)

BOUT = CARD_VALUES["bout"]


class Contract(StrEnum):
    """The four contracts, from the lowest bid up."""

    PETITE = "petite"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"

    def __str__(self) -> str:
        return self.value


MULTIPLIERS: dict[Contract, int] = {
    Contract.PETITE: 1,
    Contract.GARDE: 2,
    Contract.GARDE_SANS: 4,
    Contract.GARDE_CONTRE: 6,
}
TARGETS: dict[int, int] = {0: 56, 1: 51, 2: 41, 3: 36}
CHIEN_SIZE: dict[int, int] = {3: 6, 4: 6, 5: 3}
SEATED_MIN, SEATED_MAX = 3, 5

POIGNEE_VALUES: dict[str, int] = {"simple": 20, "double": 30, "triple": 40}
#: Trumps to show for each poignée, by the number of players seated.
POIGNEE_TRUMPS: dict[int, dict[str, int]] = {
    3: {"simple": 13, "double": 15, "triple": 18},
    4: {"simple": 10, "double": 13, "triple": 15},
    5: {"simple": 8, "double": 10, "triple": 13},
}
#: The chelem term C, seen from the attack.
CHELEM_VALUES: dict[str, int] = {
    "announced": 400,
    "unannounced": 200,
    "announced_failed": -200,
    "defense": -200,
}
#: The sides that can take the petit au bout, and the sign a of its bonus.
PETIT_AU_BOUT: dict[str, int] = {"attack": 1, "defense": -1}


def _one_of(options: Iterable[str]) -> str:
    return ", ".join(options)


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
        options=_one_of(c.value for c in Contract),
    )


def multiplier_for(contract: Contract | str) -> int:
    """The contract's multiplier: 1, 2, 4 or 6."""
    return MULTIPLIERS[to_contract(contract)]


def _bouts(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError.coded(
            "bouts",
            "bouts_not_whole",
            "%(value)s is not a whole number of bouts",
            value=repr(value),
        )
    if value not in TARGETS:
        raise ScoringError.coded(
            "bouts", "bouts_range", "%(value)s is not between 0 and 3", value=value
        )
    return value


def target_for(bouts: int) -> int:
    """The points the attack needs with this many bouts."""
    return TARGETS[_bouts(bouts)]


def _seated(value: object) -> tuple[Hashable, ...]:
    seated = distinct_players(value, "seated")
    if not SEATED_MIN <= len(seated) <= SEATED_MAX:
        raise _seated_count(len(seated))
    return seated


def shares(seated_count: int, alone: bool = True) -> tuple[int, int]:
    """(taker, partner) factors of V; each defender pays V."""
    if isinstance(seated_count, bool) or seated_count not in CHIEN_SIZE:
        raise _seated_count(repr(seated_count))
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


def _seated_count(count: object) -> ScoringError:
    return ScoringError.coded(
        "seated", "seated_count", "%(count)s players seated: a deal needs 3 to 5", count=count
    )


def _not_seated(field: str, name: object) -> ScoringError:
    return ScoringError.coded(field, "not_seated", "%(name)s is not seated", name=name)


def _check(deal: object) -> _Checked:
    if not isinstance(deal, TarotDeal):
        raise ScoringError.coded(
            "deal", "not_tarot_deal", "%(value)s is not a tarot deal", value=repr(deal)
        )
    seated = _seated(deal.seated)
    if deal.taker not in seated:
        raise _not_seated("taker", deal.taker)
    contract = to_contract(deal.contract)
    bouts = _bouts(deal.bouts)
    points = to_points(deal.points)
    if points > DECK_TOTAL:
        raise ScoringError.coded(
            "points", "points_over", "%(points)s is more than 91", points=show_points(points)
        )
    if points < 0:
        raise ScoringError.coded(
            "points", "points_under", "%(points)s is less than 0", points=show_points(points)
        )
    _check_bouts_fit(bouts, points)
    partner = deal.partner
    if len(seated) == 5:
        if partner is None:
            raise ScoringError.coded(
                "partner",
                "partner_missing",
                "with 5 players seated, name the called partner (or the taker, if alone)",
            )
        if partner not in seated:
            raise _not_seated("partner", partner)
    elif partner is not None:
        raise ScoringError.coded(
            "partner",
            "partner_not_five",
            "no partner is called with %(count)s players seated, only with 5",
            count=len(seated),
        )
    petit = deal.petit_au_bout
    if petit is not None:
        if not isinstance(petit, str) or petit not in PETIT_AU_BOUT:
            raise ScoringError.coded(
                "petit_au_bout",
                "not_side",
                "%(value)s is not a side (%(options)s)",
                value=repr(petit),
                options=_one_of(PETIT_AU_BOUT),
            )
        if petit == "attack" and bouts == 0:
            raise ScoringError.coded(
                "petit_au_bout",
                "petit_attack_no_bout",
                "the attack took the petit au bout, so it holds at least 1 bout",
            )
        if petit == "defense" and bouts == 3:
            raise ScoringError.coded(
                "petit_au_bout",
                "petit_defence_three_bouts",
                "the defence took the petit au bout, so the attack cannot hold 3 bouts",
            )
    poignees = deal.poignees
    if not isinstance(poignees, tuple | list):
        raise ScoringError.coded(
            "poignees",
            "not_poignee_list",
            "%(value)s is not a list of poignées",
            value=repr(poignees),
        )
    for poignee in poignees:
        if not isinstance(poignee, str) or poignee not in POIGNEE_VALUES:
            raise ScoringError.coded(
                "poignees",
                "not_poignee",
                "%(value)s is not a poignée (%(options)s)",
                value=repr(poignee),
                options=_one_of(POIGNEE_VALUES),
            )
    if len(poignees) > len(seated):
        raise ScoringError.coded(
            "poignees",
            "too_many_poignees",
            "%(count)s poignées with %(seated)s players seated: at most one each",
            count=len(poignees),
            seated=len(seated),
        )
    chelem = deal.chelem
    if chelem is not None and (not isinstance(chelem, str) or chelem not in CHELEM_VALUES):
        raise ScoringError.coded(
            "chelem",
            "not_chelem",
            "%(value)s is not a chelem (%(options)s)",
            value=repr(chelem),
            options=_one_of(CHELEM_VALUES),
        )
    return _Checked(seated, contract, bouts, points, partner, petit, tuple(poignees), chelem)


def _check_bouts_fit(bouts: int, points: Decimal) -> None:
    attack_needs = BOUT * bouts
    if points < attack_needs:
        raise ScoringError.coded(
            "points",
            "attack_bouts",
            "%(points)s points cannot hold %(bouts)s bouts (bouts are worth %(needs)s)",
            points=show_points(points),
            bouts=bouts,
            needs=show_points(attack_needs),
        )
    defence = DECK_TOTAL - points
    defence_needs = BOUT * (3 - bouts)
    if defence < defence_needs:
        raise ScoringError.coded(
            "points",
            "defence_bouts",
            "with %(points)s points to the attack, the defence's %(defence)s cannot hold "
            "the other %(bouts)s bouts (worth %(needs)s)",
            points=show_points(points),
            defence=show_points(defence),
            bouts=3 - bouts,
            needs=show_points(defence_needs),
        )


def validate_deal(deal: TarotDeal[P] | PassedDeal[P]) -> None:
    """Raise ScoringError, naming the field, unless the deal passes every check of §5."""
    if isinstance(deal, PassedDeal):
        _seated(deal.seated)
    else:
        _check(deal)


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

    @property
    def margin(self) -> int:
        """Made by (+) or failed by (-) this many points."""
        return self.gap if self.made else -self.gap


def deal_outcome(deal: TarotDeal[P]) -> DealOutcome[P]:
    """Score a played deal: V = s*((25+D)*m + P) + a*10*m + C, shared per §4."""
    checked = _check(deal)
    target = TARGETS[checked.bouts]
    points = checked.points
    made = points >= target
    gap = math.ceil(abs(points - target))
    multiplier = MULTIPLIERS[checked.contract]
    sign = 1 if made else -1
    poignees = sum(POIGNEE_VALUES[p] for p in checked.poignees)
    petit = PETIT_AU_BOUT.get(checked.petit_au_bout or "", 0)
    chelem = CHELEM_VALUES.get(checked.chelem or "", 0)
    value = sign * ((25 + gap) * multiplier + poignees) + petit * 10 * multiplier + chelem
    alone = deal.alone
    taker_share, partner_share = shares(len(checked.seated), alone)
    scores: dict[P, int] = {}
    for player in deal.seated:
        if player == deal.taker:
            scores[player] = taker_share * value
        elif not alone and player == deal.partner:
            scores[player] = partner_share * value
        else:
            scores[player] = -value
    return DealOutcome(
        target=target,
        attack_points=points,
        made=made,
        gap=gap,
        multiplier=multiplier,
        value=value,
        scores=scores,
    )


def score_deal(deal: TarotDeal[P] | PassedDeal[P]) -> dict[P, int]:
    """Each seated player's score for the deal (0 for all when everyone passed)."""
    if isinstance(deal, PassedDeal):
        return {player: 0 for player in _seated(deal.seated)}
    return deal_outcome(deal).scores


def _players(players: object) -> tuple[Hashable, ...]:
    return distinct_players(players, "players")


def running_totals(
    players: Sequence[P], deal_scores: Iterable[Mapping[P, int]]
) -> list[dict[P, int]]:
    """Each player's total after each deal (a player missing from a deal scores 0)."""
    order = _players(players)
    current: dict[P, int] = {player: 0 for player in order}  # type: ignore[misc]
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


def totals(players: Sequence[P], deal_scores: Iterable[Mapping[P, int]]) -> dict[P, int]:
    """Each player's total over all the deals."""
    running = running_totals(players, deal_scores)
    return running[-1] if running else {player: 0 for player in _players(players)}  # type: ignore[misc]
