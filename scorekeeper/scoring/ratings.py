"""Player ratings with openskill's Weng-Lin model (PlackettLuce; pure).

Each played deal is a match: the attack (taker and partner) against the defence; the attack
wins when the contract is made. Passed, paper and l'escopette deals stay out. :data:`BETA`
is 2 x the prior sigma (the cards weigh more than the players). The smaller team is filled
with neutral seats (:data:`NEUTRAL_SIGMA`) so that a lone taker is not always the underdog.
A player's figure is ``mu - 3 sigma``, hidden below :data:`MIN_DEALS` deals.

The model's update of two teams is written out here (``rate``), step for step as openskill
6.2's ``PlackettLuce.rate`` and ``predict_win`` compute it with their defaults (the same
figures, to the last bit: the tests say so), without the library's rating objects, their
copies and identifiers: a club's season is rated again in a fraction of the time.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from statistics import NormalDist

from scorekeeper.scoring.deal_facts import DealFacts, in_order
from scorekeeper.scoring.rating_quality import QualitySums

PRIOR_MU = 25.0
PRIOR_SIGMA = 25.0 / 3.0
BETA = 2 * PRIOR_SIGMA
NEUTRAL_SIGMA = 1e-3
Z = 3.0
MIN_DEALS = 20
TAU = 25.0 / 300.0  # openskill's defaults: sigma's additive dynamics, its floor's factor
KAPPA = 0.0001

Seat = tuple[float, float]  # mu, sigma
PRIOR: Seat = (PRIOR_MU, PRIOR_SIGMA)
NEUTRAL: Seat = (PRIOR_MU, NEUTRAL_SIGMA)  # an average player known for sure
_NORMAL = NormalDist()


def _team(seats: list[Seat]) -> Seat:
    """A team's mu and sigma squared, summed from its best ``mu - 3 sigma`` down."""
    mu = sigma_squared = 0.0
    for seat_mu, sigma in sorted(seats, key=lambda seat: seat[0] - 3.0 * seat[1], reverse=True):
        mu += seat_mu
        sigma_squared += sigma**2
    return mu, sigma_squared


def win_chance(attack: list[Seat], defence: list[Seat]) -> float:
    """The attack's chance to win (openskill's ``predict_win`` of two teams)."""
    (a_mu, a_sigma), (b_mu, b_sigma) = _team(attack), _team(defence)
    return _NORMAL.cdf((a_mu - b_mu) / math.sqrt(2 * BETA**2 + a_sigma + b_sigma))


def rate(winners: list[Seat], losers: list[Seat]) -> tuple[list[Seat], list[Seat]]:
    """Both teams' seats after the winners beat the losers (openskill's ``rate``)."""
    teams = [[(mu, math.sqrt(s * s + TAU * TAU)) for mu, s in side] for side in (winners, losers)]
    (w_mu, w_sigma), (l_mu, l_sigma) = _team(teams[0]), _team(teams[1])
    c = math.sqrt(0.0 + (w_sigma + BETA**2) + (l_sigma + BETA**2))
    won, lost = math.exp(w_mu / c), math.exp(l_mu / c)
    win, loss = won / (won + lost), lost / (won + lost)
    rated = []
    for team, sigma_squared, omega, delta in (
        (teams[0], w_sigma, 1 - win, win * (1 - win)),
        (teams[1], l_sigma, -loss, loss * (1 - loss)),
    ):
        omega *= sigma_squared / c
        delta *= sigma_squared / c**2
        delta *= math.sqrt(sigma_squared) / c
        parts = [(mu, s, s**2 / sigma_squared) for mu, s in team]
        rated.append(
            [(mu + p * omega, s * math.sqrt(max(1 - p * delta, KAPPA))) for mu, s, p in parts]
        )
    return rated[0], rated[1]


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
    plain (mu, sigma) pairs, one history point per evening and the predictions' sums."""

    def __init__(self) -> None:
        self.ratings: dict[Hashable, Seat] = {}
        self.deal_counts: dict[Hashable, int] = {}
        self.histories: dict[Hashable, History] = {}
        self.quality = QualitySums()  # the predictions' sums, deal by deal
        self.last: tuple[int, int] | None = None

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
        """Rate the deal, after every deal rated: the smaller team filled with neutral seats."""
        attack_players, defence_players = deal.attack, deal.defenders
        attack = [self.ratings.get(player, PRIOR) for player in attack_players]
        defence = [self.ratings.get(player, PRIOR) for player in defence_players]
        size = max(len(attack), len(defence))
        attack += [NEUTRAL] * (size - len(attack))
        defence += [NEUTRAL] * (size - len(defence))
        self.quality.add(win_chance(attack, defence), bool(deal.made))
        if deal.made:
            attack, defence = rate(attack, defence)
        else:
            defence, attack = rate(defence, attack)
        for players, rated in ((attack_players, attack), (defence_players, defence)):
            for player, (mu, sigma) in zip(players, rated, strict=False):
                self.ratings[player] = (mu, sigma)
                self.deal_counts[player] = self.deal_counts.get(player, 0) + 1
                history = self.histories.get(player)
                if history is None:
                    history = self.histories[player] = History()
                history.add(deal.deal_id, deal.evening_id, mu, sigma)

    def player(self, player: Hashable) -> PlayerRating:
        """One player's rating (the prior for a player never rated)."""
        mu, sigma = self.ratings.get(player, PRIOR)
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
