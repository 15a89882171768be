"""Duplicate tarot: the movement of players and cases, and the ranking that compares them.

Pure Python, no Django. A *case* (étui) holds one deal, dealt once, a hand for each of the 4
seats; a *set* is the ``deals_per_round`` cases a table plays in one round, and set s holds the
cases s*d+1 .. s*d+d. Indices are 0-based here (players, rounds, tables, seats in a table),
case numbers 1-based.

The movement is the social golfer problem (tables of 4 over rounds, no pair meeting twice as
far as can be) under the rule of bridge's Mitchell and Howell movements: no player meets a set
twice. As in a Mitchell, there are at most as many rounds as tables, and as many sets as
tables. It starts from 4 lines of walks over the integers mod ``tables`` (a player of line i
moves w_i tables a round: no set twice and no pair twice when ``tables`` is a prime of 5 or
more), the ``players % 4`` left over sitting out in turn (no one twice); a tabu search
(``duplicate_search``) then swaps players, and sets between tables, to lower the meetings
without a set played twice. The same arguments give the same movement.

The ranking compares each score with the scores of the same seat of the same case at the
other tables: in match points, 2 for each score beaten and 1 for each tie, a player's figure
being the percentage of the most he could get; against the mean, the score less the mean of
the others, a player's figure being the sum. Ties are broken by the sum of scores, then the
number of (case, seat) where the player did best, and the names only order the lines.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from typing import Any

from scorekeeper.scoring.duplicate_search import CLASH, Search
from scorekeeper.scoring.errors import ScoringError

MIN_PLAYERS, MAX_PLAYERS = 12, 60
METHODS = ("match_points", "mean")
WORK = 30_000  # moves weighed by the search: under a second for 60 players, 15 rounds
CENT = Decimal("0.01")


class DuplicateError(ScoringError):
    """A movement or ranking that cannot be: ``code`` names why, for the screens to word."""


@dataclass(frozen=True)
class Movement:
    players: int
    tables: int
    rounds: int
    deals_per_round: int
    sets: int
    seating: tuple[tuple[tuple[int, ...], ...], ...]  # seating[r][t]: 4 players, seats 1..4
    set_at: tuple[tuple[int, ...], ...]  # set_at[r][t]: the set table t plays in round r

    def cases(self, round_index: int, table_index: int) -> tuple[int, ...]:
        """The case numbers (from 1) table ``table_index`` plays in round ``round_index``."""
        first = self.set_at[round_index][table_index] * self.deals_per_round + 1
        return tuple(range(first, first + self.deals_per_round))

    def sitting_out(self, round_index: int) -> tuple[int, ...]:
        seated = {p for table in self.seating[round_index] for p in table}
        return tuple(p for p in range(self.players) if p not in seated)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "rounds": self.rounds,
            "deals_per_round": self.deals_per_round,
            "seating": [[list(table) for table in tables] for tables in self.seating],
            "set_at": [list(sets) for sets in self.set_at],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Movement:
        """The movement ``to_json`` gave; a DuplicateError when it does not hold together."""
        try:
            players, rounds = int(data["players"]), int(data["rounds"])
            seating = tuple(
                tuple(tuple(int(p) for p in table) for table in tables)
                for tables in data["seating"]
            )
            set_at = tuple(tuple(int(s) for s in sets) for sets in data["set_at"])
            movement = cls(
                players, players // 4, rounds, int(data["deals_per_round"]),
                max(players // 4, rounds), seating, set_at,
            )  # fmt: skip
        except (KeyError, TypeError, ValueError, AttributeError):
            raise DuplicateError.coded("movement", "bad_movement", "not a movement") from None
        shapes = [len(seating), len(set_at)] + [len(tables) for tables in seating + set_at]
        seats = [p for tables in seating for table in tables for p in (*table, len(table))]
        if (
            movement.deals_per_round < 1
            or shapes != [rounds, rounds] + [movement.tables] * (2 * rounds)
            or any(not 0 <= p < players for p in seats[::5])
            or any(size != 4 for size in seats[4::5])
            or any(not 0 <= s < movement.sets for sets in set_at for s in sets)
        ):
            raise DuplicateError.coded("movement", "bad_movement", "not a movement")
        return movement


def duplicate_movement(
    *, players: int, rounds: int, deals_per_round: int, seed: int = 0
) -> Movement:
    """Which table plays which set in each round, and who sits where (see the module)."""
    tables = players // 4 if isinstance(players, int) else 0
    for field, value, low, high in (
        ("players", players, MIN_PLAYERS, MAX_PLAYERS),
        ("rounds", rounds, 1, max(tables, 1)),
        ("deals_per_round", deals_per_round, 1, 99),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise DuplicateError.coded(
                field, "out_of_range", "%(value)s is not between %(low)s and %(high)s",
                value=repr(value), low=low, high=high,
            )  # fmt: skip
    rng = random.Random(seed)
    order = list(range(players))
    rng.shuffle(order)
    set_at = [[(t + r) % tables for t in range(tables)] for r in range(rounds)]
    start = _walks(order, tables, rounds)
    search = Search(players, tables, start, set_at)
    # No movement does better than each player's meetings past the others he could meet.
    seated = Counter(p for tables_of_round in start for table in tables_of_round for p in table)
    floor = -(-sum(max(0, 3 * n - players + 1) for n in seated.values()) // 2)
    if not search.improve(WORK, floor, rng):  # never met in the tests of every count
        raise DuplicateError.coded("movement", "no_movement", "no movement found")
    seating = []
    for tables_of_round in search.rounds:
        seating.append(tuple(tuple(rng.sample(table, 4)) for table in tables_of_round))
    played_sets = tuple(tuple(sets_of_round) for sets_of_round in search.sets_at)
    return Movement(players, tables, rounds, deals_per_round, tables, tuple(seating), played_sets)


def _walks(order: list[int], tables: int, rounds: int) -> list[list[list[int]]]:
    """A start when rounds <= tables (so sets = tables): 4 lines of walks, the walk a of line
    i playing set a + w_i * r in round r (mod tables), at table set - r; the speeds w_i are
    those that repeat fewest sets and meetings (none when tables is a prime of 5 or more).
    The players left over sit out first; then each comes back to the walk of line j that
    plays the sets his walk would have played one round late: a + w_j * (r - 1), from the
    player there, who sits out then, and so on (a token per line: no one sits out twice)."""
    speeds = min(
        combinations_with_replacement(range(tables), 4),
        key=lambda ws: (
            CLASH * sum(_repeats(w, tables, rounds) for w in ws)
            + sum(_repeats(w - v, tables, rounds) for w, v in combinations(ws, 2))
        ),
    )
    walks = [(w, a) for w in speeds for a in range(tables)]
    holder, resting = order[: 4 * tables], order[4 * tables :]
    movement = []
    for r in range(rounds):
        for j in range(len(resting) if r else 0):
            k = j * tables + (-(r - 1) * speeds[j]) % tables
            holder[k], resting[j] = resting[j], holder[k]
        seated: list[list[int]] = [[] for _ in range(tables)]
        for (w, a), p in zip(walks, holder, strict=True):
            seated[(a + w * r - r) % tables].append(p)
        movement.append(seated)
    return movement


def _repeats(step: int, tables: int, rounds: int) -> int:
    """How often r * step (mod tables) comes again over the rounds, times the tables."""
    counts = Counter(step * r % tables for r in range(rounds))
    return tables * sum(c * (c - 1) // 2 for c in counts.values())


@dataclass(frozen=True)
class HeldScore:
    """The points one player scored with one seat of one case, at one table."""

    case: int
    seat: int
    table: int
    player: Hashable
    score: int


@dataclass(frozen=True)
class DuplicateLine:
    player: Hashable
    rank: int
    figure: Decimal  # percentage of match points, or the sum of scores against the mean
    raw: int  # the sum of the player's scores
    held: int  # the (case, seat) he held
    best: int  # those where no one who held the same cards did better (of 2 or more)


@dataclass(frozen=True)
class HeldResult:
    held: HeldScore
    others: int  # the scores it is compared with
    figure: Decimal  # its match points, or its score against the mean of the others


def duplicate_ranking(
    scores: Iterable[HeldScore], *, method: str, names: Mapping[Hashable, str] | None = None
) -> tuple[list[DuplicateLine], list[HeldResult]]:
    """The players ranked by ``method`` (see the module), and each score compared.

    Results are ordered by case, seat and table. A player with nothing yet compared has 50 %
    in match points and 0 against the mean. ``names`` orders equal lines (else ``str``).
    """
    if method not in METHODS:
        raise DuplicateError.coded(
            "method", "bad_method", "%(value)s is not a method", value=method
        )
    groups: dict[tuple[int, int], list[HeldScore]] = defaultdict(list)
    for held in scores:
        groups[(held.case, held.seat)].append(held)
    results: list[HeldResult] = []
    got: dict[Hashable, Fraction] = defaultdict(Fraction)
    most: dict[Hashable, int] = defaultdict(int)
    raw: dict[Hashable, int] = defaultdict(int)
    count: dict[Hashable, int] = defaultdict(int)
    best: dict[Hashable, int] = defaultdict(int)
    for key in sorted(groups):
        group = sorted(groups[key], key=lambda h: h.table)
        for held in group:
            others = [h.score for h in group if h is not held]
            if method == "match_points":
                figure = Fraction(sum(2 * (held.score > o) + (held.score == o) for o in others))
            else:
                figure = held.score - Fraction(sum(others), len(others)) if others else Fraction()
            results.append(HeldResult(held, len(others), _decimal(figure)))
            got[held.player] += figure
            most[held.player] += 2 * len(others)
            raw[held.player] += held.score
            count[held.player] += 1
            best[held.player] += bool(others) and held.score >= max(others)
    figures = {
        p: _decimal(100 * got[p] / most[p] if most[p] else Fraction(50))
        if method == "match_points"
        else _decimal(got[p])
        for p in got
    }
    name = names or {}
    order = sorted(figures, key=lambda p: (-figures[p], -raw[p], -best[p], name.get(p, str(p))))
    lines: list[DuplicateLine] = []
    for place, p in enumerate(order, 1):
        tied = lines and (lines[-1].figure, lines[-1].raw, lines[-1].best) == (
            figures[p], raw[p], best[p],
        )  # fmt: skip
        rank = lines[-1].rank if tied else place
        lines.append(DuplicateLine(p, rank, figures[p], raw[p], count[p], best[p]))
    return lines, results


def _decimal(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(CENT, ROUND_HALF_UP)
