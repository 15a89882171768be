"""Seating for club tournaments: who sits at which table, in which seat, and who deals first.

Tables of 4, of 5 as the count requires, of 3 only when allowed. 16 players over 5 rounds
get the affine plane of order 4 (no pair meets twice); other counts a greedy start and a
bounded tabu search (``seating_search``), deterministic for a seed. Rounds may also be seated
one at a time from who is present and who met whom.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.scoring.errors import ScoringError, distinct_players
from scorekeeper.scoring.seating_search import (
    Tables,
    add_round,
    empty_counts,
    greedy_round,
    improve,
)

Pair = frozenset[Hashable]

# Tabu moves per round searched, per player: enough for 80 players over 6 rounds to reach
# its best in well under a second on a slow machine, and bounded so that a seed repeats.
MOVES_PER_PLAYER_ROUND = 40
MOVES_ONE_ROUND = 400
ATTEMPTS = 4  # fresh starts of the search over all rounds, sharing one budget of work
WORK = 1_000_000  # swaps weighed at most: about 1.5 s of search on a slow machine

# GF(4) = {0, 1, x, x + 1} written 0, 1, 2, 3; addition is XOR, and x * x = x + 1.
_GF4_TIMES = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


@dataclass(frozen=True)
class Table:
    """One table of a round: the players in seat order and who deals first; iterating gives the
    players, so a round may be tables or plain tuples."""

    players: tuple[Hashable, ...]
    first_dealer: int  # index into players

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.players)

    def __len__(self) -> int:
        return len(self.players)

    @property
    def dealer(self) -> Hashable:
        """The player who deals the first deal."""
        return self.players[self.first_dealer]


def table_sizes(n_players: int, allow_three: bool = False) -> list[int]:
    """Tables of 4, then of 5 as needed (then of 3 when allowed): 17 → [4, 4, 4, 5]. A
    ScoringError on ``players`` when they cannot be (fewer than 3; 3, 6, 7, 11 without 3s)."""
    if isinstance(n_players, bool) or not isinstance(n_players, int):
        raise ScoringError.coded(
            "players", "not_a_number", "%(value)s is not a number", value=repr(n_players)
        )
    if n_players < 3:
        raise ScoringError.coded(
            "players",
            "too_few_to_seat",
            "%(count)s players are too few for a table",
            count=n_players,
        )
    fives = n_players % 4  # 5 = 4 + 1, so each 5 makes up one player left over from the 4s
    if n_players >= 5 * fives:
        return [4] * ((n_players - 5 * fives) // 4) + [5] * fives
    if allow_three:
        threes = (3 * n_players) % 4  # 3 = 4 - 1: each 3 takes one player off a 4
        return [4] * ((n_players - 3 * threes) // 4) + [3] * threes
    raise ScoringError.coded(
        "players",
        "needs_table_of_three",
        "%(count)s players cannot sit at tables of 4 and 5 without a table of 3",
        count=n_players,
    )


def meetings(rounds: Iterable[Iterable[Iterable[Hashable]]]) -> Counter[Pair]:
    """How many times each pair sat at one table over these rounds."""
    counts: Counter[Pair] = Counter()
    for tables in rounds:
        for table in tables:
            players = list(table)
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    counts[frozenset((a, b))] += 1
    return counts


def repeated_meetings(rounds: Iterable[Iterable[Iterable[Hashable]]]) -> int:
    """Meetings beyond the first of each pair: a pair that met three times counts 2."""
    return sum(count - 1 for count in meetings(rounds).values() if count > 1)


def affine_plane_16() -> list[list[list[int]]]:
    """The 5 rounds of the affine plane AG(2, 4): players 0..15, no pair meets twice.

    Player 4x + y is the point (x, y) over GF(4); each round is a parallel class: the lines
    y = m·x + c for one slope m (4 rounds), and the lines x = c (the fifth).
    """
    rounds = []
    for slope in range(4):
        lines = [[4 * x + (_GF4_TIMES[slope][x] ^ c) for x in range(4)] for c in range(4)]
        rounds.append(lines)
    rounds.append([[4 * c + y for y in range(4)] for c in range(4)])
    return rounds


def seat_round(
    present: Sequence[Hashable],
    met: Mapping[Pair, int] | None = None,
    *,
    seed: int = 0,
    allow_three: bool = False,
    planned: Iterable[Iterable[Hashable]] | None = None,
) -> tuple[Table, ...]:
    """Seat one round of the players present, keeping apart the pairs in ``met`` (as
    :func:`meetings` gives), starting from the ``planned`` tables; deterministic."""
    players = distinct_players(present, "present")
    sizes = table_sizes(len(players), allow_three)
    index = {player: i for i, player in enumerate(players)}
    counts = _history_counts(index, met or {})
    rng = random.Random(seed)
    if planned is None:
        tables = greedy_round(range(len(players)), sizes, counts, rng)
    else:
        tables = _from_plan(planned, index, sizes)
    add_round(counts, tables)
    tables = improve([tables], counts, [0], MOVES_ONE_ROUND, rng, work=WORK)[0][0]
    return _dress(tables, players, rng)


def plan_schedule(
    players: Sequence[Hashable],
    rounds: int,
    *,
    seed: int = 0,
    allow_three: bool = False,
    work: int = WORK,
    seconds: float | None = None,
) -> tuple[tuple[Table, ...], ...]:
    """Seat every round for these players, with as few repeated meetings as found (the affine
    plane for 16 players over up to 5 rounds); deterministic unless ``seconds`` cuts the search."""
    deadline = None if seconds is None else time.monotonic() + seconds
    everyone = distinct_players(players, "players")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ScoringError.coded(
            "rounds", "not_round_count", "%(value)s is not a number of rounds", value=repr(rounds)
        )
    n = len(everyone)
    sizes = table_sizes(n, allow_three)
    rng = random.Random(seed)
    order = list(range(n))
    rng.shuffle(order)  # who gets which point of the plane depends on the seed
    counts = empty_counts(n)
    schedule: list[Tables] = []
    if n == 16:
        for lines in affine_plane_16()[:rounds]:
            tables = [[order[point] for point in line] for line in lines]
            schedule.append(tables)
            add_round(counts, tables)
    free = list(range(len(schedule), rounds))
    if free:
        schedule = _search_rounds(
            schedule, counts, order, sizes, free, rng, work=work, deadline=deadline
        )
    return tuple(_dress(tables, everyone, rng) for tables in schedule)


def _search_rounds(
    schedule: list[Tables],
    counts: list[list[int]],
    order: Sequence[int],
    sizes: Sequence[int],
    free: Sequence[int],
    rng: random.Random,
    work: int = WORK,
    deadline: float | None = None,
) -> list[Tables]:
    """The free rounds seated one by one, searched together, and started again if need be.

    Up to ``ATTEMPTS`` starts share one budget of work; the first schedule with no pair
    meeting twice ends it, else the best of them is kept.
    """
    base = [row[:] for row in counts]
    moves = MOVES_PER_PLAYER_ROUND * len(order) * len(free)
    best: tuple[int, list[Tables]] | None = None
    for _ in range(ATTEMPTS):
        counts = [row[:] for row in base]
        attempt = [tables for r, tables in enumerate(schedule) if r not in free]
        for r in free:
            tables = greedy_round(order, sizes, counts, rng)
            attempt.append(tables)
            add_round(counts, tables)
            attempt, _, work = improve(
                attempt, counts, [r], MOVES_ONE_ROUND, rng, work=work, deadline=deadline
            )
        attempt, cost, work = improve(
            attempt, counts, free, moves, rng, work=work, deadline=deadline
        )
        if best is None or cost < best[0]:
            best = (cost, attempt)
        if cost == 0 or work == 0:
            break
    assert best is not None
    return best[1]


def _history_counts(index: Mapping[Hashable, int], met: Mapping[Pair, int]) -> list[list[int]]:
    """The meetings among the players present, as a matrix over their numbers."""
    counts = empty_counts(len(index))
    for pair, times in met.items():
        if len(pair) != 2 or times <= 0:
            continue
        a, b = pair
        if a in index and b in index:
            counts[index[a]][index[b]] += times
            counts[index[b]][index[a]] += times
    return counts


def _from_plan(
    planned: Iterable[Iterable[Hashable]], index: Mapping[Hashable, int], sizes: Sequence[int]
) -> Tables:
    """The planned tables less who has gone, then late arrivals, cut to this round's sizes.

    Tables keep their members while they fit: a planned table is matched to a size, the
    largest with the largest, and players beyond it wait with the late arrivals for a seat.
    """
    kept = [[index[p] for p in table if p in index] for table in planned]
    kept = sorted((t for t in kept if t), key=len, reverse=True)
    placed = {p for table in kept for p in table}
    waiting = [i for i in index.values() if i not in placed]
    tables: Tables = []
    for k, size in enumerate(sorted(sizes, reverse=True)):
        table = kept[k][:size] if k < len(kept) else []
        if k < len(kept):
            waiting.extend(kept[k][size:])
        tables.append(table)
    for table in kept[len(sizes) :]:
        waiting.extend(table)
    for table, size in zip(tables, sorted(sizes, reverse=True), strict=True):
        while len(table) < size:
            table.append(waiting.pop(0))
    return tables


def _dress(tables: Tables, players: Sequence[Hashable], rng: random.Random) -> tuple[Table, ...]:
    """Players back from numbers, seats in an order drawn from the seed, a first dealer."""
    dressed = []
    for table in sorted(tables, key=lambda t: (len(t), min(t))):
        seats = list(table)
        rng.shuffle(seats)
        dressed.append(Table(tuple(players[i] for i in seats), rng.randrange(len(seats))))
    return tuple(dressed)


def plan_following(
    players: Sequence[Hashable],
    rounds: int,
    met: Mapping[Pair, int] | None = None,
    *,
    seed: int = 0,
    allow_three: bool = False,
    work: int = WORK,
    seconds: float | None = None,
) -> tuple[tuple[Table, ...], ...]:
    """Seat the rounds still to play after the meetings in ``met``, within ``work`` and about
    ``seconds``; another seed gives another search, so the organiser can keep the better plan."""
    deadline = None if seconds is None else time.monotonic() + seconds
    everyone = distinct_players(players, "players")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ScoringError.coded(
            "rounds", "not_round_count", "%(value)s is not a number of rounds", value=repr(rounds)
        )
    sizes = table_sizes(len(everyone), allow_three)
    index = {player: i for i, player in enumerate(everyone)}
    counts = _history_counts(index, met or {})
    rng = random.Random(seed)
    order = list(range(len(everyone)))
    rng.shuffle(order)
    schedule = _search_rounds(
        [], counts, order, sizes, list(range(rounds)), rng, work=work, deadline=deadline
    )
    return tuple(_dress(tables, everyone, rng) for tables in schedule)
