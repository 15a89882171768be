"""Player ratings with openskill's Weng-Lin model (PlackettLuce; pure).

Each played deal is a match: the attack (taker and partner) against the defence; the attack
wins when the contract is made. Passed, paper and l'escopette deals stay out. :data:`BETA`
is 2 x the prior sigma (the cards weigh more than the players). The smaller team is filled
with neutral seats (:data:`NEUTRAL_SIGMA`) so that a lone taker is not always the underdog.
A player's figure is ``mu - 3 sigma``, hidden below :data:`MIN_DEALS` deals.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

from scorekeeper.scoring.deal_facts import DealFacts, in_order
from scorekeeper.scoring.rating_quality import QualitySums

PRIOR_MU = 25.0
PRIOR_SIGMA = 25.0 / 3.0
BETA = 2 * PRIOR_SIGMA
NEUTRAL_SIGMA = 1e-3
Z = 3.0
MIN_DEALS = 20
NEUTRAL_SEATS = 3  # a lone taker against four defenders; more are made when needed


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
    neutral: list[PlackettLuceRating] | None = None,
) -> tuple[list[PlackettLuceRating], list[PlackettLuceRating]]:
    """The two teams as the library sees them: the smaller one filled with neutral seats.

    ``neutral``, if given, holds enough neutral seats to take from (the library neither
    changes the ratings it is given nor keeps them, so the same seats can fill every deal).
    """
    size = max(len(attack), len(defence))
    missing = size - min(len(attack), len(defence))
    if neutral is None or len(neutral) < missing:
        neutral = [neutral_seat(model) for _ in range(missing)]
    return attack + neutral[: size - len(attack)], defence + neutral[: size - len(defence)]


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after his last deal of an evening, for the chart."""

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
    points: History | None = field(default=None, repr=False)  # his arrays

    @property
    def history(self) -> tuple[RatingPoint, ...]:
        """One point per evening (made when asked: the ratings table does not)."""
        return self.points.points() if self.points is not None else ()

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: a skill the player very likely has at least (0 for a newcomer)."""
        return self.mu - Z * self.sigma

    @property
    def shown(self) -> bool:
        """True once the player has MIN_DEALS rated deals."""
        return self.deals >= MIN_DEALS


class History:
    """A player's rating after his last deal of each evening, in four flat arrays: a stored
    state of many evenings is copied and unpickled in a few copies of memory, not one object
    per point."""

    __slots__ = ("deal_ids", "evening_ids", "mus", "sigmas")

    def __init__(self) -> None:
        self.deal_ids = array("q")
        self.evening_ids = array("q")
        self.mus = array("d")
        self.sigmas = array("d")

    def __getstate__(self) -> tuple[array, array, array, array]:  # type: ignore[type-arg]
        return (self.deal_ids, self.evening_ids, self.mus, self.sigmas)

    def __setstate__(self, state: tuple[array, array, array, array]) -> None:  # type: ignore[type-arg]
        self.deal_ids, self.evening_ids, self.mus, self.sigmas = state

    def __len__(self) -> int:
        return len(self.deal_ids)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, History) and self.__getstate__() == other.__getstate__()

    def add(self, deal_id: int, evening_id: int, mu: float, sigma: float) -> None:
        """The rating after this deal: a new point, or the evening's last one replaced."""
        if self.evening_ids and self.evening_ids[-1] == evening_id:
            self.deal_ids[-1], self.mus[-1], self.sigmas[-1] = deal_id, mu, sigma
            return
        self.deal_ids.append(deal_id)
        self.evening_ids.append(evening_id)
        self.mus.append(mu)
        self.sigmas.append(sigma)

    def points(self) -> tuple[RatingPoint, ...]:
        return tuple(map(RatingPoint, self.deal_ids, self.evening_ids, self.mus, self.sigmas))


class OutOfOrder(ValueError):
    """A deal comes before one the state has already rated: replay from the start instead."""


class RatingState:
    """The ratings after some deals, extendable with later ones, cheap to pickle:
    plain (mu, sigma) pairs, one history point per evening and the predictions' sums. Each
    player's openskill rating object is made once and reused.
    """

    def __init__(self, model: PlackettLuce | None = None) -> None:
        self.model = model or rating_model()
        self.ratings: dict[Hashable, tuple[float, float]] = {}
        self.deal_counts: dict[Hashable, int] = {}
        self.histories: dict[Hashable, History] = {}
        self.quality = QualitySums()  # the predictions' sums, deal by deal
        self.last: tuple[int, int] | None = None
        self._seat_objects()

    def _seat_objects(self) -> None:
        """The rating objects handed to the library (not kept in a pickle)."""
        self._seats: dict[Hashable, PlackettLuceRating] = {}
        self._neutral = [neutral_seat(self.model) for _ in range(NEUTRAL_SEATS)]

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        for unkept in ("model", "_seats", "_neutral"):
            del state[unkept]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.model = rating_model()
        self._seat_objects()

    def _rating(self, player: Hashable) -> PlackettLuceRating:
        """The player's rating object, holding his current mu and sigma."""
        mu, sigma = self.ratings.get(player, (self.model.mu, self.model.sigma))
        seat = self._seats.get(player)
        if seat is None:
            seat = self._seats[player] = self.model.rating(mu=mu, sigma=sigma)
        else:
            seat.mu, seat.sigma = mu, sigma
        return seat

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
        """Rate the deal, after every deal rated."""
        attack_players, defence_players = deal.attack, deal.defenders
        attack = [self._rating(player) for player in attack_players]
        defence = [self._rating(player) for player in defence_players]
        teams = list(filled_teams(self.model, attack, defence, self._neutral))
        chance = self.model.predict_win(teams)[0]
        made = bool(deal.made)
        self.quality.add(chance, made)
        new_attack, new_defence = self.model.rate(teams, ranks=[0, 1] if made else [1, 0])
        for players, rated in ((attack_players, new_attack), (defence_players, new_defence)):
            for player, rating in zip(players, rated, strict=False):
                self.ratings[player] = (rating.mu, rating.sigma)
                self.deal_counts[player] = self.deal_counts.get(player, 0) + 1
                history = self.histories.get(player)
                if history is None:
                    history = self.histories[player] = History()
                history.add(deal.deal_id, deal.evening_id, rating.mu, rating.sigma)

    def player(self, player: Hashable) -> PlayerRating:
        """One player's rating (the prior for a player never rated)."""
        mu, sigma = self.ratings.get(player, (self.model.mu, self.model.sigma))
        return PlayerRating(
            player=player,
            mu=mu,
            sigma=sigma,
            deals=self.deal_counts.get(player, 0),
            points=self.histories.get(player),
        )

    def table(self) -> list[PlayerRating]:
        """Every rated player, the highest conservative figure first (ties by mu, then name)."""
        rows = [self.player(player) for player in self.ratings]
        return sorted(rows, key=lambda row: (-row.conservative, -row.mu, str(row.player)))
