"""Paper deals: a deal known only by each player's score (whole numbers summing to zero),
counted in totals and standings but not in contract statistics."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from scorekeeper.scoring.deal_checks import SEATED_MAX, SEATED_MIN
from scorekeeper.scoring.errors import ScoringError

P = TypeVar("P", bound=Hashable)
LARGEST = 10**6


@dataclass(frozen=True)
class PaperDeal(Generic[P]):
    """The players who played the deal, in seat order, and what each scored."""

    seated: tuple[P, ...]
    scores: Mapping[P, int]


def score_paper_deal(deal: PaperDeal[P]) -> dict[P, int]:
    """The scores as given, once checked: one per seated player, whole, summing to zero."""
    if not isinstance(deal, PaperDeal) or not isinstance(deal.scores, Mapping):
        raise ScoringError.coded(
            "scores", "not_paper", "%(value)s is not a paper deal", value=repr(deal)
        )
    seated = tuple(deal.seated)
    if not SEATED_MIN <= len(seated) <= SEATED_MAX:
        raise ScoringError.coded(
            "scores",
            "seated_count",
            "%(count)s players seated: a deal needs 3 to 5",
            count=len(seated),
        )
    scores: dict[P, int] = {}
    for player in seated:
        if player not in deal.scores:
            raise ScoringError.coded(
                "scores", "paper_missing", "no score for %(name)s", name=player
            )
        value = deal.scores[player]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > LARGEST:
            raise ScoringError.coded(
                "scores", "not_whole", "%(value)s is not a whole number", value=repr(value)
            )
        scores[player] = value
    for player in deal.scores:
        if player not in scores:
            raise ScoringError.coded(
                "scores", "paper_not_seated", "%(name)s has a score but did not play", name=player
            )
    total = sum(scores.values())
    if total != 0:
        raise ScoringError.coded(
            "scores", "paper_sum", "the scores add up to %(total)s, not 0", total=total
        )
    return scores
