"""L'escopette: four players share the nine stake trumps of each deal (rules.md §6)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from scorekeeper.scoring.errors import ScoringError, distinct_players

P = TypeVar("P", bound=Hashable)

STAKE_TRUMPS = (1, 2, 3, 4, 5, 6, 7, 12, 20)
ESCOPETTE_TARGETS = (50, 100)
ESCOPETTE_PLAYERS = 4


@dataclass(frozen=True)
class EscopetteDeal(Generic[P]):
    """Who won each of the nine stake trumps."""

    stakes: Mapping[int, P]


@dataclass(frozen=True)
class EscopetteResult(Generic[P]):
    """The scores of each deal, the totals, and the winner once the game has ended."""

    scores: list[dict[P, int]] = field(default_factory=list)
    totals: dict[P, int] = field(default_factory=dict)
    winner: P | None = None
    ended_after: int | None = None


def escopette_players(count: int) -> ScoringError:
    return ScoringError.coded(
        "players",
        "escopette_players",
        "l'escopette needs exactly 4 players, not %(count)s",
        count=count,
    )


def not_stake_trump(value: str) -> ScoringError:
    return ScoringError.coded(
        "stakes",
        "not_stake_trump",
        "%(value)s is not a stake trump (%(options)s)",
        value=value,
        options=", ".join(map(str, STAKE_TRUMPS)),
    )


def stakes_missing(missing: str) -> ScoringError:
    return ScoringError.coded(
        "stakes", "stakes_missing", "no winner for trump %(trumps)s: give all nine", trumps=missing
    )


def check_players(players: object) -> tuple[Hashable, ...]:
    """The four players, in seat order."""
    order = distinct_players(players, "players")
    if len(order) != ESCOPETTE_PLAYERS:
        raise escopette_players(len(order))
    return order


def check_target(target: object) -> int:
    """The target: 50 or 100."""
    if isinstance(target, bool) or target not in ESCOPETTE_TARGETS:
        raise ScoringError.coded(
            "target", "not_target", "%(value)s is not a target (50 or 100)", value=repr(target)
        )
    return int(target)  # type: ignore[call-overload]


def score_escopette_deal(players: Sequence[P], deal: EscopetteDeal[P]) -> dict[P, int]:
    """Each player's score: the sum of the stake trumps he won (60 in all)."""
    order = check_players(players)
    if not isinstance(deal, EscopetteDeal):
        raise ScoringError("stakes", f"{deal!r} is not an escopette deal")
    stakes = deal.stakes
    if not isinstance(stakes, Mapping):
        raise ScoringError("stakes", f"{stakes!r} is not a mapping of stake trumps to players")
    for trump in stakes:
        if isinstance(trump, bool) or not isinstance(trump, int) or trump not in STAKE_TRUMPS:
            raise not_stake_trump(repr(trump))
    missing = [trump for trump in STAKE_TRUMPS if trump not in stakes]
    if missing:
        raise stakes_missing(", ".join(map(str, missing)))
    scores: dict[P, int] = {player: 0 for player in order}  # type: ignore[misc]
    for trump in STAKE_TRUMPS:
        winner = stakes[trump]
        try:
            known = winner in scores
        except TypeError:
            known = False
        if not known:
            raise ScoringError.coded(
                "stakes",
                "stake_not_playing",
                "trump %(trump)s went to %(name)s, who is not playing",
                trump=trump,
                name=winner,
            )
        scores[winner] += trump
    return scores


def escopette_winner(totals: Mapping[P, int], target: int) -> P | None:
    """The player alone in the lead with at least the target, else None."""
    goal = check_target(target)
    if not totals:
        return None
    best = max(totals.values())
    leaders = [player for player, total in totals.items() if total == best]
    if len(leaders) == 1 and best >= goal:
        return leaders[0]
    return None


def escopette_game(
    players: Sequence[P], target: int, deals: Iterable[EscopetteDeal[P]]
) -> EscopetteResult[P]:
    """Play the deals in order; the game ends once a player reaches the target alone in the lead."""
    order = check_players(players)
    goal = check_target(target)
    current: dict[P, int] = {player: 0 for player in order}  # type: ignore[misc]
    scores: list[dict[P, int]] = []
    winner: P | None = None
    ended_after: int | None = None
    for number, deal in enumerate(deals, start=1):
        if ended_after is not None:
            raise ScoringError.coded(
                "deal",
                "game_ended",
                "the game ended after deal %(number)s (%(winner)s won)",
                number,
                number=ended_after,
                winner=winner,
            )
        try:
            deal_scores = score_escopette_deal(order, deal)  # type: ignore[arg-type]
        except ScoringError as error:
            raise error.with_deal(number) from None
        scores.append(deal_scores)
        for player, score in deal_scores.items():
            current[player] += score
        winner = escopette_winner(current, goal)
        if winner is not None:
            ended_after = number
    return EscopetteResult(
        scores=scores, totals=dict(current), winner=winner, ended_after=ended_after
    )
