"""DealFacts: what the club figures read from one stored tarot deal (pure). Passed and
paper deals stay out of the ratings and contract statistics; a paper deal's scores still
count in point flow and records.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.scoring.tarot import DealOutcome, TarotDeal

Player = Hashable


@dataclass(frozen=True)
class DealFacts:
    """One deal as the club figures see it.

    ``ordinal`` places the deal in the club's history (the caller numbers deals by evening
    date, game and deal number); deals are always read in (ordinal, deal_id) order.
    ``scores`` holds every player with a score row (seated or sitting out, who has 0).
    ``made`` is None when nobody took (passed) or when a paper deal does not say.
    ``petit_au_bout`` is "attack", "defense" or ""; ``chelem`` a chelem term's name or "".
    ``night`` is the tournament whose table the deal was played at: its tables and rounds are
    one night in the evening records (0: the deal's evening is a night of its own).
    """

    deal_id: int
    evening_id: int
    ordinal: int
    seated: tuple[Player, ...]
    scores: Mapping[Player, int] = field(default_factory=dict)
    taker: Player | None = None
    partner: Player | None = None
    made: bool | None = None
    contract: str = ""
    bouts: int | None = None
    petit_au_bout: str = ""
    chelem: str = ""
    passed: bool = False
    paper: bool = False
    night: int = 0

    @classmethod
    def scored(
        cls,
        deal: TarotDeal[Any],
        outcome: DealOutcome[Any],
        *,
        deal_id: int,
        evening_id: int,
        ordinal: int | None = None,
    ) -> DealFacts:
        """A played deal and its outcome by the rules (a taker who called himself has no
        partner here); ``ordinal`` defaults to ``deal_id``."""
        return cls(
            deal_id=deal_id,
            evening_id=evening_id,
            ordinal=deal_id if ordinal is None else ordinal,
            seated=tuple(deal.seated),
            scores=outcome.scores,
            taker=deal.taker,
            partner=None if deal.partner == deal.taker else deal.partner,
            made=outcome.made,
            contract=str(deal.contract),
            bouts=deal.bouts,
            petit_au_bout=deal.petit_au_bout or "",
            chelem=deal.chelem or "",
        )

    @property
    def attack(self) -> tuple[Player, ...]:
        """The taker, then the called partner when it is another player."""
        if self.taker is None:
            return ()
        if self.partner is None or self.partner == self.taker:
            return (self.taker,)
        return (self.taker, self.partner)

    @property
    def defenders(self) -> tuple[Player, ...]:
        """The seated players outside the attack, in seat order."""
        attack = self.attack
        return tuple(player for player in self.seated if player not in attack)

    @property
    def called_partner(self) -> Player | None:
        """The partner when the taker called another player (at 5), else None."""
        attack = self.attack
        return attack[1] if len(attack) == 2 else None

    @property
    def played(self) -> bool:
        """A deal with a known taker and result, entered by its inputs (not paper, not passed)."""
        return (
            not self.passed
            and not self.paper
            and self.taker is not None
            and self.made is not None
            and bool(self.defenders)
        )


def in_order(deals: Iterable[DealFacts]) -> list[DealFacts]:
    """The deals in the club's order: by ordinal, then by deal id."""
    return sorted(deals, key=lambda deal: (deal.ordinal, deal.deal_id))
