"""A made-up club with players of hidden skill, to check the ratings on (pure, seeded).

:func:`synthetic_club` plays evenings of tarot at 3, 4 or 5 with the real scoring rules
(``scoring.tarot``): a deal's attack makes its contract with the probability
``logistic(edge + spread * (taker + partner/2 - mean of the defenders))`` where each player's
skill is drawn once from a normal law. The same seed gives the same club, deal for deal.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from scorekeeper.scoring.deal_facts import DealFacts, Player
from scorekeeper.scoring.tarot import TARGETS, TarotDeal, deal_outcome

CONTRACTS = ("petite", "garde", "garde_sans", "garde_contre")
CONTRACT_WEIGHTS = (40, 45, 10, 5)
TABLE_SIZES = (4, 4, 4, 5, 5, 3)


@dataclass(frozen=True)
class SyntheticClub:
    """The deals, in order, and each player's hidden skill."""

    deals: list[DealFacts]
    skills: dict[int, float]


def passed_deal(seated: tuple[Player, ...], *, deal_id: int, evening_id: int) -> DealFacts:
    """A deal nobody took: everyone seated scores 0."""
    return DealFacts(
        deal_id=deal_id,
        evening_id=evening_id,
        ordinal=deal_id,
        seated=seated,
        scores=dict.fromkeys(seated, 0),
        passed=True,
    )


def _points(rng: random.Random, bouts: int, made: bool) -> int:
    target = TARGETS[bouts]
    if made:
        return min(target + rng.randint(0, 20), int(91 - 4.5 * (3 - bouts)))
    return max(target - rng.randint(1, 15), math.ceil(4.5 * bouts))


def synthetic_club(
    *,
    players: int = 12,
    evenings: int = 40,
    deals_per_evening: int = 25,
    spread: float = 1.0,
    edge: float = 0.4,
    seed: int = 2026,
) -> SyntheticClub:
    """Play ``evenings`` evenings of ``deals_per_evening`` deals among ``players`` players."""
    rng = random.Random(seed)
    skills = {player: rng.gauss(0.0, 1.0) for player in range(1, players + 1)}
    deals: list[DealFacts] = []
    for evening in range(1, evenings + 1):
        size = min(rng.choice(TABLE_SIZES), players)
        seated = tuple(rng.sample(sorted(skills), size))
        for _ in range(deals_per_evening):
            deal_id = len(deals) + 1
            if rng.random() < 0.05:
                deals.append(passed_deal(seated, deal_id=deal_id, evening_id=evening))
                continue
            taker = rng.choice(seated)
            partner = None
            if size == 5 and rng.random() < 0.8:
                partner = rng.choice([player for player in seated if player != taker])
            attack = [taker] if partner is None else [taker, partner]
            defence = [player for player in seated if player not in attack]
            strength = skills[taker] + (skills[partner] / 2 if partner is not None else 0.0)
            strength -= sum(skills[player] for player in defence) / len(defence)
            made = rng.random() < 1 / (1 + math.exp(-(edge + spread * strength)))
            bouts = rng.choices((0, 1, 2, 3), weights=(10, 35, 40, 15))[0]
            contract = rng.choices(CONTRACTS, weights=CONTRACT_WEIGHTS)[0]
            petit = "attack" if bouts and made and rng.random() < 0.05 else ""
            played = TarotDeal(
                seated=seated,
                taker=taker,
                contract=contract,
                bouts=bouts,
                points=_points(rng, bouts, made),
                partner=taker if size == 5 and partner is None else partner,
                petit_au_bout=petit or None,
            )
            deals.append(
                DealFacts.scored(played, deal_outcome(played), deal_id=deal_id, evening_id=evening)
            )
    return SyntheticClub(deals=deals, skills=skills)
