"""The local search behind the duplicate movement: players are numbers 0..n-1 here.

Pure Python, no Django. ``scoring.duplicate`` owns the public API. Table t of round r plays
set ``sets_at[r][t]``. A movement's *meetings* are, over pairs, ``c * (c - 1) / 2`` for ``c``
meetings; its *clashes* the same sum over (player, set) for ``c`` plays of a set. A move takes
a player with a clash or a repeated meeting and, in that round, either swaps him with a player
of another table or swaps his table's set with another table's, whichever lowers
``meetings + CLASH * clashes`` most (a tabu search, as in ``seating_search``); the search may
cross movements with clashes, and keeps the one without clashes that has the fewest meetings.
It is bounded by a number of moves, so that a seed always gives the same movement.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

CLASH = 20
Rounds = list[list[list[int]]]
Move = tuple[int, int, int, int, int | None]


class Search:
    """Rounds of tables (lists of player numbers), with the meetings and plays they make."""

    def __init__(self, players: int, sets: int, rounds: Rounds, sets_at: Sequence[Sequence[int]]):
        self.sets_at = [list(sets_of_round) for sets_of_round in sets_at]
        self.rounds = rounds
        self.meet = [[0] * players for _ in range(players)]
        self.played = [[0] * sets for _ in range(players)]
        self.seat_of = [[-1] * len(rounds) for _ in range(players)]  # table, -1 sitting out
        for r, tables in enumerate(rounds):
            for t, table in enumerate(tables):
                for a in table:
                    self.seat_of[a][r] = t
            self._count(r, range(len(tables)), 1)
        pairs = sum(c * (c - 1) // 2 for row in self.meet for c in row) // 2
        self.cost = (pairs, sum(c * (c - 1) // 2 for row in self.played for c in row))

    def _count(self, r: int, which: Sequence[int], step: int) -> None:
        """Count (or with step -1 uncount) the meetings and plays of these tables of round r."""
        for t in which:
            s, table = self.sets_at[r][t], self.rounds[r][t]
            for i, a in enumerate(table):
                self.played[a][s] += step
                for b in table[i + 1 :]:
                    self.meet[a][b] += step
                    self.meet[b][a] += step

    def delta(self, r: int, t: int, u: int, a: int, b: int | None) -> tuple[int, int]:
        """(meetings, clashes) changed when a (at table t) and b (at table u) trade places
        in round r, or with b None when tables t and u trade their sets."""
        st, su = self.sets_at[r][t], self.sets_at[r][u]
        if b is None:
            clashes = sum(self.played[x][su] - self.played[x][st] + 1 for x in self.rounds[r][t])
            clashes += sum(self.played[y][st] - self.played[y][su] + 1 for y in self.rounds[r][u])
            return 0, clashes
        row_a, row_b = self.meet[a], self.meet[b]
        meetings = sum(row_b[x] - row_a[x] + 1 for x in self.rounds[r][t] if x != a)
        meetings += sum(row_a[y] - row_b[y] + 1 for y in self.rounds[r][u] if y != b)
        pa, pb = self.played[a], self.played[b]
        return meetings, pa[su] - pa[st] + 1 + pb[st] - pb[su] + 1

    def plan(self, r: int, t: int, u: int, a: int, b: int | None) -> tuple[int, int, list[Move]]:
        """(meetings, clashes) a move changes, and its swaps: a and b trade places in round
        r, and in the round where a played b's set and b played a's, if there is one, so
        that neither plays a set twice (or with b None, tables t and u trade their sets)."""
        meetings, clashes = self.delta(r, t, u, a, b)
        moves: list[Move] = [(r, t, u, a, b)]
        if b is not None and clashes == 2:
            other = self._round_of(a, self.sets_at[r][u])
            if other is not None and other == self._round_of(b, self.sets_at[r][t]):
                self.swap(r, t, u, a, b)
                t2, u2 = self.seat_of[a][other], self.seat_of[b][other]
                second, clashes2 = self.delta(other, t2, u2, a, b)
                self.swap(r, t, u, b, a)
                moves.append((other, t2, u2, a, b))
                meetings, clashes = meetings + second, clashes + clashes2
        return meetings, clashes, moves

    def _round_of(self, a: int, s: int) -> int | None:
        seats = self.seat_of[a]
        return next((r for r, t in enumerate(seats) if t >= 0 and self.sets_at[r][t] == s), None)

    def swap(self, r: int, t: int, u: int, a: int, b: int | None) -> None:
        meetings, clashes = self.delta(r, t, u, a, b)
        self.cost = (self.cost[0] + meetings, self.cost[1] + clashes)
        tables, sets = self.rounds[r], self.sets_at[r]
        self._count(r, (t, u), -1)
        if b is None:
            sets[t], sets[u] = sets[u], sets[t]
        else:
            tables[t][tables[t].index(a)] = b
            tables[u][tables[u].index(b)] = a
            self.seat_of[a][r], self.seat_of[b][r] = u, t
        self._count(r, (t, u), 1)

    def troubled(self, r: int) -> list[tuple[int, int]]:
        """(table, player) of round r for each player with a clash or a repeated meeting."""
        found = []
        for t, table in enumerate(self.rounds[r]):
            s = self.sets_at[r][t]
            for a in table:
                row = self.meet[a]
                if self.played[a][s] > 1 or any(row[x] > 1 for x in table if x != a):
                    found.append((t, a))
        return found

    def improve(self, work: int, floor: int, rng: random.Random, patience: int = 80) -> bool:
        """Search until ``work`` moves are weighed or the meetings reach ``floor`` without a
        clash; keep the best movement without a clash met. False when none was met."""
        best = self._copy() if self.cost[1] == 0 else None
        best_meetings = self.cost[0] if best else None
        tabu: dict[tuple[int, int], int] = {}
        since_best = 0
        move = 0
        while work > 0:
            move += 1
            if best_meetings is not None and best_meetings <= floor:
                break
            order = [r for r in range(len(self.rounds)) if len(self.rounds[r]) > 1]
            rng.shuffle(order)
            found = next(((r, f) for r in order if (f := self.troubled(r))), None)
            if found is None:
                break
            r, troubled = found
            t, a = rng.choice(troubled)
            choice = None
            work -= 5 * len(self.rounds[r])
            for u, table in enumerate(self.rounds[r]):
                for b in (*table, None) if u != t else ():
                    meetings, clashes, moves_of = self.plan(r, t, u, a, b)
                    weight = meetings + CLASH * clashes
                    aspired = self.cost[1] + clashes == 0 and (
                        best_meetings is None or self.cost[0] + meetings < best_meetings
                    )
                    key = (r, u) if b is None else (r, -1 - b)
                    if (aspired or tabu.get(key, -1) < move) and (
                        choice is None or weight < choice[0]
                    ):
                        choice = (weight, moves_of, key)
            if choice is None:
                continue
            _, moves_of, key = choice
            for one in moves_of:
                self.swap(*one)
            tabu[key] = tabu[(r, t) if moves_of[0][4] is None else (r, -1 - a)] = (
                move + 3 + rng.randrange(8)
            )
            since_best += 1
            if self.cost[1] == 0 and (best_meetings is None or self.cost[0] < best_meetings):
                best, best_meetings, since_best = self._copy(), self.cost[0], 0
            elif since_best >= patience:
                since_best = 0
                r = rng.choice(order)
                t, u = rng.sample(range(len(self.rounds[r])), 2)
                self.swap(r, t, u, rng.choice(self.rounds[r][t]), rng.choice(self.rounds[r][u]))
        if best is not None:
            self.rounds, self.sets_at = best
        return best is not None

    def _copy(self) -> tuple[Rounds, list[list[int]]]:
        rounds = [[list(table) for table in tables] for tables in self.rounds]
        return rounds, [list(sets_of_round) for sets_of_round in self.sets_at]
