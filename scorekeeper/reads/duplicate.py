"""A duplicate tournament's results: each score compared with those of the same seat of the
same case at the other tables (``scoring.duplicate``), the players ranked by the
tournament's method, and each case's detail.

Three queries whatever the number of deals: the scores of the deals with a case number (with
their round and table), the seats of the tournament's tables (seat i of a table is its i-th
position), and the registered players. The key is the ranking's (``tournaments.ranking_key``)
with the method: the pages cache their HTML under it and the live poll tags it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.core.cache import cache

from scorekeeper.models import DealScore, Seat, Tournament
from scorekeeper.reads.tournaments import Ranking, ranking_key
from scorekeeper.reads.tournaments import ranking as free_ranking
from scorekeeper.scoring.duplicate import HeldScore, duplicate_ranking
from scorekeeper.server.wording import name_order

RANKING_SECONDS = 3600  # a ranking stays while its tournament does not change


@dataclass(frozen=True)
class DuplicateRow:
    rank: int
    player_id: int
    name: str
    licence: str
    figure: Decimal  # a percentage of match points, or the sum against the mean
    raw: int  # the sum of his scores
    held: int  # the deals he played
    best: int  # the deals where no one who held his cards did better


@dataclass(frozen=True)
class CaseRow:
    seat: int  # 1..4
    round: int
    table: int
    name: str
    score: int
    others: int  # the scores it was compared with
    figure: Decimal


@dataclass(frozen=True)
class DuplicateRanking:
    method: str
    rows: tuple[DuplicateRow, ...]
    cases: dict[int, tuple[CaseRow, ...]]  # case number -> its scores, by seat, round, table
    key: str = ""


def ranking_for(tournament: Tournament, key: str = "") -> Ranking | DuplicateRanking:
    """The ranking the tournament's kind calls for, kept in Django's cache under the versions it
    was computed from (``ranking_key``, given when the caller has it): a live poll of an
    unchanged tournament computes nothing again."""
    key = key or ranking_key(tournament)
    name = f"{key}.{tournament.kind}.{tournament.method}"
    found = cache.get(name)
    if found is None:
        duplicate = tournament.kind == Tournament.Kind.DUPLICATE
        found = ranking(tournament, key) if duplicate else free_ranking(tournament, key)
        cache.set(name, found, RANKING_SECONDS)
    return found


def ranking(tournament: Tournament, key: str = "") -> DuplicateRanking:
    seats: dict[int, list[int]] = defaultdict(list)
    tables = Seat.objects.filter(game__tournament_table__round__tournament=tournament)
    for game_id, player_id in tables.order_by("game_id", "position").values_list("game", "player"):
        seats[game_id].append(player_id)
    where: dict[int, tuple[int, int]] = {}  # game -> (round, table)
    held = []
    for case, game_id, round_number, table, player_id, score in DealScore.objects.filter(
        deal__game__tournament_table__round__tournament=tournament,
        deal__case_number__isnull=False,
        seated=True,
    ).values_list(
        "deal__case_number",
        "deal__game_id",
        "deal__game__tournament_table__round__number",
        "deal__game__tournament_table__number",
        "player_id",
        "score",
    ):
        where[game_id] = (round_number, table)
        seat = seats[game_id].index(player_id) + 1
        held.append(HeldScore(case, seat, game_id, player_id, score))
    entrants = tournament.entrants.values_list("player_id", "player__name", "player__licence")
    names = {pk: (name, licence) for pk, name, licence in entrants}
    lines, results = duplicate_ranking(
        held, method=tournament.method, names={pk: name_order(n)[0] for pk, (n, _) in names.items()}
    )
    cases: dict[int, list[CaseRow]] = defaultdict(list)
    for result in results:
        h = result.held
        name = names.get(h.player, ("?", ""))[0]
        row = CaseRow(h.seat, *where[h.table], name, h.score, result.others, result.figure)
        cases[h.case].append(row)
    rows = (
        DuplicateRow(
            x.rank, x.player, *names.get(x.player, ("?", "")), x.figure, x.raw, x.held, x.best
        )
        for x in lines
    )
    return DuplicateRanking(
        method=tournament.method,
        rows=tuple(rows),
        cases={
            case: tuple(sorted(found, key=lambda r: (r.seat, r.round, r.table)))
            for case, found in sorted(cases.items())
        },
        key=f"{key or ranking_key(tournament)}.{tournament.method}",
    )
