"""The local search behind the seating scheduler, on players numbered 0..n-1.

A schedule's cost is the sum over pairs of ``c * (c - 1) / 2``, ``c`` being how often the
pair shares a table (history included): a third meeting weighs more than two second ones.
Moves swap two players of one round between tables (a tabu search after Dotú and Van
Hentenryck), bounded in moves and work so that a seed gives one result, and by an optional
``deadline``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

Tables = list[list[int]]


def empty_counts(size: int) -> list[list[int]]:
    """A square matrix of zeros: how many times player i met player j."""
    return [[0] * size for _ in range(size)]


def add_round(counts: list[list[int]], tables: Tables, step: int = 1) -> None:
    """Count (or with ``step=-1`` uncount) the meetings of one round."""
    for table in tables:
        for i, a in enumerate(table):
            row = counts[a]
            for b in table[i + 1 :]:
                row[b] += step
                counts[b][a] += step


def schedule_cost(counts: list[list[int]]) -> int:
    """Sum over pairs of c * (c - 1) / 2: zero when no pair met twice."""
    total = 0
    for i, row in enumerate(counts):
        for c in row[i + 1 :]:
            if c > 1:
                total += c * (c - 1) // 2
    return total


def greedy_round(
    players: Sequence[int], sizes: Sequence[int], counts: list[list[int]], rng: random.Random
) -> Tables:
    """Fill the tables one after another, each time with the player who met the table least."""
    pool = list(players)
    rng.shuffle(pool)
    tables: Tables = []
    for size in sizes:
        table = [pool.pop()]
        while len(table) < size:
            best_index, best_cost = 0, None
            for index, candidate in enumerate(pool):
                row = counts[candidate]
                cost = sum(row[x] for x in table)
                if best_cost is None or cost < best_cost:
                    best_index, best_cost = index, cost
                    if cost == 0:
                        break
            table.append(pool.pop(best_index))
        tables.append(table)
    return tables


def _swap_delta(
    counts: list[list[int]], a: int, b: int, table_a: list[int], table_b: list[int]
) -> int:
    """Change of cost when a (at table_a) and b (at table_b) trade places."""
    row_a, row_b = counts[a], counts[b]
    delta = 0
    for x in table_a:
        if x != a:
            delta += row_b[x] - row_a[x] + 1
    for y in table_b:
        if y != b:
            delta += row_a[y] - row_b[y] + 1
    return delta


def _conflicted(counts: list[list[int]], tables: Tables) -> list[tuple[int, int]]:
    """(table, player) for each player of a round who meets someone for a second time."""
    found = []
    for t, table in enumerate(tables):
        for a in table:
            row = counts[a]
            if any(row[x] > 1 for x in table if x != a):
                found.append((t, a))
    return found


def _swap(counts: list[list[int]], tables: Tables, t: int, a: int, u: int, b: int) -> None:
    """a (at table t) and b (at table u) trade places; the counts follow."""
    table_a, table_b = tables[t], tables[u]
    add_round(counts, [table_a, table_b], -1)
    table_a[table_a.index(a)] = b
    table_b[table_b.index(b)] = a
    add_round(counts, [table_a, table_b], 1)


def _best_swap(
    counts: list[list[int]],
    tables: Tables,
    conflicted: list[tuple[int, int]],
    allowed: Callable[[int, int, int], bool],
    rng: random.Random,
) -> tuple[int, int, int, int, int] | None:
    """(delta, t, a, u, b): the allowed swap of a conflicted player that lowers cost most."""
    choice = None
    ties = 0
    for t, a in conflicted:
        table_a = tables[t]
        for u, table_b in enumerate(tables):
            if u == t:
                continue
            for b in table_b:
                delta = _swap_delta(counts, a, b, table_a, table_b)
                if choice is not None and delta > choice[0]:
                    continue
                if not allowed(delta, a, b):
                    continue
                if choice is None or delta < choice[0]:
                    choice, ties = (delta, t, a, u, b), 1
                else:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        choice = (delta, t, a, u, b)
    return choice


def improve(
    rounds: list[Tables],
    counts: list[list[int]],
    free: Sequence[int],
    moves: int,
    rng: random.Random,
    patience: int = 60,
    work: int = 1_000_000,
    deadline: float | None = None,
) -> tuple[list[Tables], int, int]:
    """(schedule, cost, work left): the best schedule a tabu search of the free rounds met.
    ``counts`` holds the history and every round, and is left describing the returned schedule;
    after ``patience`` moves without a new best, random swaps shake it loose.
    """
    cost = schedule_cost(counts)
    best_cost = cost
    best = [[list(table) for table in tables] for tables in rounds]
    tabu: dict[tuple[int, int], int] = {}
    since_best = 0
    free = [r for r in free if len(rounds[r]) > 1]  # a lone table has no swap
    for move in range(moves):
        if best_cost == 0:
            break
        troubled = [r for r in free if _conflicted(counts, rounds[r])]
        if not troubled:
            break
        r = rng.choice(troubled)
        tables = rounds[r]

        def allowed(
            delta: int, a: int, b: int, r: int = r, move: int = move, aspire: int = best_cost - cost
        ) -> bool:
            """Not tabu, or a new best."""
            if delta < aspire:
                return True
            return tabu.get((r, a), -1) < move and tabu.get((r, b), -1) < move

        conflicted = _conflicted(counts, tables)
        players = sum(len(table) for table in tables)
        work -= 1 + sum(players - len(tables[t]) for t, _ in conflicted)
        if work < 0:
            break
        if deadline is not None and time.monotonic() >= deadline:
            work = 0
            break
        choice = _best_swap(counts, tables, conflicted, allowed, rng)
        if choice is None:
            continue
        delta, t, a, u, b = choice
        _swap(counts, tables, t, a, u, b)
        cost += delta
        tenure = move + 3 + rng.randrange(8)
        tabu[(r, a)] = tenure
        tabu[(r, b)] = tenure
        since_best += 1
        if cost < best_cost:
            best_cost, since_best = cost, 0
            best = [[list(table) for table in tables] for tables in rounds]
        elif since_best >= patience:
            since_best = 0
            for _ in range(2):
                cost += _random_swap(counts, rounds, free, rng)
    if best != rounds:
        for r in free:
            add_round(counts, rounds[r], -1)
            add_round(counts, best[r], 1)
    return best, best_cost, max(work, 0)


def _random_swap(
    counts: list[list[int]], rounds: list[Tables], free: Sequence[int], rng: random.Random
) -> int:
    """Swap two players of different tables in a random free round; the change of cost."""
    tables = rounds[rng.choice(free)]
    t, u = rng.sample(range(len(tables)), 2)
    a, b = rng.choice(tables[t]), rng.choice(tables[u])
    delta = _swap_delta(counts, a, b, tables[t], tables[u])
    _swap(counts, tables, t, a, u, b)
    return delta
