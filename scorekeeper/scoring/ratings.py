"""Player ratings with openskill's Weng-Lin model (pure; imports openskill and scoring only).

Each played deal is a match between two teams: the attack (the taker, and the called partner
at 5) and the defence (the other seated players); the attack wins when the contract is made.
Passed deals, paper deals and L'escopette stay out (see ``DealFacts.played``).

The model is openskill's ``PlackettLuce`` with its default parameters except ``beta``, the
spread of one deal's result around the players' skills: :data:`BETA` = 2 x the prior sigma,
because in tarot the cards weigh more than the players. With two teams Plackett-Luce is the
Bradley-Terry comparison of the two, it takes teams of any size, and it is the library's
default and fastest model.

openskill adds up a team's skills, so a lone taker against three defenders would always look
like the underdog. The smaller team is therefore filled up to the size of the larger one with
neutral seats (:data:`NEUTRAL_SIGMA`: the prior mu, a sigma near 0) that the library rates
like anyone else and that are then dropped: a 1 v 3 deal is the taker plus two average seats
against the three defenders.

A player's shown figure is the conservative ``mu - 3 sigma`` (openskill's ``ordinal()``),
hidden below :data:`MIN_DEALS` deals. The ratings depend only on the deals and their order:
:class:`RatingState` can be advanced with newer deals, and :func:`replay` rebuilds it from
the start after a deal is corrected or deleted.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from scorekeeper.scoring.deal_facts import DealFacts, in_order

PRIOR_MU = 25.0
PRIOR_SIGMA = 25.0 / 3.0
BETA = 2 * PRIOR_SIGMA
NEUTRAL_SIGMA = 1e-3
Z = 3.0
MIN_DEALS = 20


def rating_model() -> PlackettLuce:
    """The one model every rating here comes from."""
    return PlackettLuce(mu=PRIOR_MU, sigma=PRIOR_SIGMA, beta=BETA)


def neutral_seat(model: PlackettLuce) -> PlackettLuceRating:
    """An average player known for sure: fills the smaller team up."""
    return model.rating(mu=model.mu, sigma=NEUTRAL_SIGMA)


def filled_teams(
    model: PlackettLuce,
    attack: list[PlackettLuceRating],
    defence: list[PlackettLuceRating],
) -> tuple[list[PlackettLuceRating], list[PlackettLuceRating]]:
    """The two teams as the library sees them: the smaller one filled with neutral seats."""
    size = max(len(attack), len(defence))
    return (
        attack + [neutral_seat(model) for _ in range(size - len(attack))],
        defence + [neutral_seat(model) for _ in range(size - len(defence))],
    )


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating just after one deal, for the chart."""

    deal_id: int
    evening_id: int
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return self.mu - Z * self.sigma


@dataclass(frozen=True)
class PlayerRating:
    """Where a player stands: mu, sigma, the conservative figure and the deals behind it."""

    player: Hashable
    mu: float
    sigma: float
    deals: int
    history: tuple[RatingPoint, ...]

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: a skill the player very likely has at least (0 for a newcomer)."""
        return self.mu - Z * self.sigma

    @property
    def shown(self) -> bool:
        """True once the player has MIN_DEALS rated deals."""
        return self.deals >= MIN_DEALS

    def by_evening(self) -> tuple[RatingPoint, ...]:
        """The history thinned to one point per evening: the rating after its last deal."""
        points: dict[int, RatingPoint] = {}
        for point in self.history:
            points.pop(point.evening_id, None)
            points[point.evening_id] = point
        return tuple(points.values())


@dataclass(frozen=True)
class Prediction:
    """What the ratings said before a deal: p, the attack's chance to win; and what happened."""

    deal_id: int
    attack_win: float
    made: bool


class OutOfOrder(ValueError):
    """A deal comes before one the state has already rated: replay from the start instead."""


class RatingState:
    """The ratings after some deals, extendable with later ones."""

    def __init__(self, model: PlackettLuce | None = None) -> None:
        self.model = model or rating_model()
        self.ratings: dict[Hashable, PlackettLuceRating] = {}
        self.deal_counts: dict[Hashable, int] = {}
        self.histories: dict[Hashable, list[RatingPoint]] = {}
        self.predictions: list[Prediction] = []
        self.last: tuple[int, int] | None = None

    def _rating(self, player: Hashable) -> PlackettLuceRating:
        rating = self.ratings.get(player)
        if rating is None:
            rating = self.ratings[player] = self.model.rating()
        return rating

    def advance(self, deals: Iterable[DealFacts]) -> RatingState:
        """Rate these deals, which must all come after the last one rated (else OutOfOrder)."""
        for deal in in_order(deals):
            key = (deal.ordinal, deal.deal_id)
            if self.last is not None and key <= self.last:
                raise OutOfOrder(f"deal {deal.deal_id} comes before deal {self.last[1]}")
            self.last = key
            if deal.played:
                self._rate(deal)
        return self

    def _rate(self, deal: DealFacts) -> None:
        attack_players, defence_players = deal.attack, deal.defenders
        attack = [self._rating(player) for player in attack_players]
        defence = [self._rating(player) for player in defence_players]
        teams = list(filled_teams(self.model, attack, defence))
        chance = self.model.predict_win(teams)[0]
        self.predictions.append(Prediction(deal.deal_id, chance, bool(deal.made)))
        new_attack, new_defence = self.model.rate(teams, ranks=[0, 1] if deal.made else [1, 0])
        for players, rated in ((attack_players, new_attack), (defence_players, new_defence)):
            for player, rating in zip(players, rated, strict=False):
                self.ratings[player] = rating
                self.deal_counts[player] = self.deal_counts.get(player, 0) + 1
                self.histories.setdefault(player, []).append(
                    RatingPoint(deal.deal_id, deal.evening_id, rating.mu, rating.sigma)
                )

    def player(self, player: Hashable) -> PlayerRating:
        """One player's rating (the prior for a player never rated)."""
        rating = self.ratings.get(player) or self.model.rating()
        return PlayerRating(
            player=player,
            mu=rating.mu,
            sigma=rating.sigma,
            deals=self.deal_counts.get(player, 0),
            history=tuple(self.histories.get(player, ())),
        )

    def table(self) -> list[PlayerRating]:
        """Every rated player, the highest conservative figure first (ties by mu, then name)."""
        rows = [self.player(player) for player in self.ratings]
        return sorted(rows, key=lambda row: (-row.conservative, -row.mu, str(row.player)))


def replay(deals: Iterable[DealFacts], model: PlackettLuce | None = None) -> RatingState:
    """The ratings from scratch over these deals (a season's, or the club's all time)."""
    return RatingState(model).advance(deals)
