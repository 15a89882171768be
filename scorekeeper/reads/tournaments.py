"""A tournament as its pages show it: each round's tables and their progress, the ranking;
and the club's list of evenings, where a tournament is one line (``club_nights``).

A fixed number of queries whatever the size of the tournament: progress reads the rounds,
the tables with their deal counts and the seats; the ranking reads the players' stored
evening figures (``models.PlayerEvening``) summed per player and table, and the registered
players. Its key names the tournament's version and its table evenings' versions: the pages
cache their HTML under it.

Ties in the ranking are broken by, in order: more rounds won at the table (the best score
of the table that round, shared when equal), then the best single round; players still
equal share the rank.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Sum

from scorekeeper.models import DealScore, Evening, PlayerEvening, Seat, Tournament, TournamentTable
from scorekeeper.scoring.seating import repeated_meetings
from scorekeeper.server.wording import name_order


@dataclass(frozen=True)
class TableProgress:
    number: int
    evening_id: int
    token: str
    players: tuple[str, ...]  # seat order
    first_dealer: str
    deals: int
    due: int  # the round's planned deals and those the organiser allowed past them
    planned: int  # the round's planned deals

    @property
    def missing(self) -> int:
        return max(self.due - self.deals, 0)

    @property
    def state(self) -> str:
        """``done``, ``playing`` (some deals entered) or ``waiting`` (none yet)."""
        if self.deals >= self.due:
            return "done"
        return "playing" if self.deals else "waiting"


@dataclass(frozen=True)
class RoundProgress:
    number: int
    closed: bool
    tables: tuple[TableProgress, ...]
    closed_at: dt.datetime | None
    repeated: int  # pairs meeting again, counted over the rounds up to this one

    @property
    def done(self) -> int:
        return sum(1 for table in self.tables if table.state == "done")

    @property
    def short(self) -> tuple[TableProgress, ...]:
        """The tables with deals missing."""
        return tuple(table for table in self.tables if table.missing)

    def seat_of(self) -> list[tuple[str, int, int]]:
        """(player, table, seat) for every player of the round, by name."""
        rows = [
            (name, table.number, seat)
            for table in self.tables
            for seat, name in enumerate(table.players, start=1)
        ]
        return sorted(rows, key=lambda row: (name_order(row[0]), row[1]))


def progress(tournament: Tournament) -> list[RoundProgress]:
    """Every round started, first to last, with its tables in number order."""
    tables = list(
        TournamentTable.objects.filter(round__tournament=tournament)
        .select_related("round", "game__first_dealer")
        .annotate(deal_count=Count("game__deals"))
        .order_by("round__number", "number")
    )
    seats: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for game_id, player_id, name in (
        Seat.objects.filter(game__tournament_table__round__tournament=tournament)
        .order_by("game_id", "position")
        .values_list("game_id", "player_id", "player__name")
    ):
        seats[game_id].append((player_id, name))
    by_round: dict[int, list[TournamentTable]] = defaultdict(list)
    for table in tables:
        by_round[table.round.number].append(table)
    rounds: list[RoundProgress] = []
    history: list[list[list[int]]] = []
    for number, round_tables in sorted(by_round.items()):
        history.append([[pk for pk, _name in seats[table.game_id]] for table in round_tables])
        rounds.append(
            RoundProgress(
                number=number,
                closed=round_tables[0].round.is_closed,
                closed_at=round_tables[0].round.closed_at,
                tables=tuple(
                    TableProgress(
                        number=table.number,
                        evening_id=table.evening_id,
                        token=table.token,
                        players=tuple(name for _pk, name in seats[table.game_id]),
                        first_dealer=table.game.first_dealer.name,
                        deals=table.deal_count,
                        due=table.deals_due(tournament.deals_per_round),
                        planned=tournament.deals_per_round,
                    )
                    for table in round_tables
                ),
                repeated=repeated_meetings(history),
            )
        )
    return rounds


@dataclass(frozen=True)
class RankRow:
    rank: int
    player_id: int
    name: str
    total: int
    rounds: tuple[int | None, ...]  # the score of each round played, None when not seated
    rounds_won: int
    best_round: int | None
    licence: str = ""  # the federation's licence number, if the club gave it

    @property
    def sort_key(self) -> tuple[int, int, int]:
        best = self.best_round if self.best_round is not None else -(10**9)
        return (-self.total, -self.rounds_won, -best)


@dataclass(frozen=True)
class RoundRow:
    rank: int
    name: str
    table: int
    score: int


@dataclass(frozen=True)
class Ranking:
    rounds: tuple[int, ...]  # the numbers of the rounds with scores
    rows: tuple[RankRow, ...]
    by_round: dict[int, tuple[RoundRow, ...]] = field(default_factory=dict)
    key: str = ""  # names the content (``ranking_key``): the pages cache their HTML under it


def ranking_key(tournament: Tournament) -> str:
    """Names the ranking's content: the tournament's and its table evenings' versions."""
    version = Tournament.objects.filter(pk=tournament.pk).values_list("version", flat=True)
    tables = Evening.objects.filter(tournament_table__round__tournament=tournament).aggregate(
        versions=Sum("version"), count=Count("pk")
    )
    return (
        f"tournament.ranking.{tournament.pk}.{version.first()}."
        f"{tables['versions'] or 0}.{tables['count']}"
    )


def ranking(tournament: Tournament, key: str = "") -> Ranking:
    """The players ranked by their total over the rounds played (see the module's ties);
    ``key`` is its ``ranking_key`` when the caller has read it already."""
    key = key or ranking_key(tournament)
    sums = (
        PlayerEvening.objects.filter(evening__tournament_table__round__tournament=tournament)
        .values_list(
            "player_id",
            "evening__tournament_table__round__number",
            "evening__tournament_table__number",
        )
        .annotate(total=Sum("total"))
        .order_by()
    )
    entrants = list(tournament.entrants.values_list("player_id", "player__name", "player__licence"))
    names = {player_id: name for player_id, name, _licence in entrants}
    licences = {player_id: licence for player_id, _name, licence in entrants}
    scores: dict[int, dict[int, int]] = defaultdict(dict)  # player -> round -> score
    tables: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)  # (round, table) -> ...
    for player_id, round_number, table_number, total in sums:
        scores[player_id][round_number] = total
        tables[(round_number, table_number)][player_id] = total
    numbers = tuple(sorted({number for number, _table in tables}))
    won: dict[int, int] = defaultdict(int)
    by_round: dict[int, list[tuple[int, str, int, int]]] = defaultdict(list)
    for (round_number, table_number), table in tables.items():
        best = max(table.values())
        for player_id, score in table.items():
            won[player_id] += score == best
            name = names.get(player_id, "?")
            by_round[round_number].append((-score, name_order(name), table_number, player_id))
    rows = [
        RankRow(
            rank=0,
            player_id=player_id,
            name=name,
            total=sum(scores[player_id].values()),
            rounds=tuple(scores[player_id].get(number) for number in numbers),
            rounds_won=won[player_id],
            best_round=max(scores[player_id].values()) if scores[player_id] else None,
            licence=licences[player_id],
        )
        for player_id, name in names.items()
    ]
    rows.sort(key=lambda row: (row.sort_key, name_order(row.name), row.player_id))
    ranked: list[RankRow] = []
    for index, row in enumerate(rows):
        same = ranked and ranked[-1].sort_key == row.sort_key
        rank = ranked[-1].rank if same else index + 1
        ranked.append(RankRow(**{**row.__dict__, "rank": rank}))
    return Ranking(
        rounds=numbers,
        rows=tuple(ranked),
        by_round={number: _round_rows(by_round[number], names) for number in numbers},
        key=key,
    )


def _round_rows(
    entries: list[tuple[int, str, int, int]], names: dict[int, str]
) -> tuple[RoundRow, ...]:
    rows: list[RoundRow] = []
    for index, (negative, _key, table, player_id) in enumerate(sorted(entries)):
        same = rows and rows[-1].score == -negative
        rows.append(
            RoundRow(
                rank=rows[-1].rank if same else index + 1,
                name=names.get(player_id, "?"),
                table=table,
                score=-negative,
            )
        )
    return tuple(rows)


@dataclass(frozen=True)
class TableDeal:
    deal_id: int
    number: int
    paper: bool
    scores: tuple[int | None, ...]  # in seat order, None for a player sitting out
    case: int | None = None  # a duplicate deal's case number


def table_deals(table: TournamentTable) -> tuple[tuple[str, ...], tuple[TableDeal, ...]]:
    """A table's players in seat order and its deals with each player's score: two queries."""
    seats = list(
        Seat.objects.filter(game_id=table.game_id)
        .order_by("position")
        .values_list("player_id", "player__name")
    )
    deals: dict[int, tuple[int, bool, int | None, dict[int, int]]] = {}
    fields = ("number", "paper", "case_number")
    for deal_id, number, paper, case, player_id, score, seated in (
        DealScore.objects.filter(deal__game_id=table.game_id)
        .order_by("deal__number")
        .values_list("deal_id", *(f"deal__{f}" for f in fields), "player_id", "score", "seated")
    ):
        entry = deals.setdefault(deal_id, (number, paper, case, {}))
        if seated:
            entry[3][player_id] = score
    return tuple(name for _pk, name in seats), tuple(
        TableDeal(
            deal_id=deal_id,
            number=number,
            paper=paper,
            scores=tuple(scores.get(pk) for pk, _name in seats),
            case=case,
        )
        for deal_id, (number, paper, case, scores) in deals.items()
    )


def planned_repeats(tournament: Tournament) -> int | None:
    """Pairs meeting again over the whole plan (rounds played as seated), or None if no plan."""
    plan = tournament.schedule or {}
    if not plan.get("rounds"):
        return None
    return repeated_meetings([[list(table) for table in tables] for tables in plan["rounds"]])


@dataclass(frozen=True)
class Night:
    """A line of the club's evenings: an evening, or a tournament's tables and rounds."""

    evening_id: int  # its first
    date: dt.date
    place: str  # a tournament's name
    in_progress: bool  # an evening not closed, a tournament not finished
    tournament_id: int | None = None


def club_nights(club_id: int) -> list[Night]:
    """The club's evenings, latest first, each tournament one line at its first table (one
    query)."""
    nights: dict[int, Night] = {}
    tournament = "tournament_table__round__tournament"
    rows = Evening.objects.filter(club_id=club_id).order_by("date", "pk")
    fields = (f"{tournament}_id", f"{tournament}__name", f"{tournament}__state")
    for pk, date, place, closed, tournament_id, name, state in rows.values_list(
        "pk", "date", "place", "closed_at", *fields
    ):
        if (tournament_id or -pk) not in nights:
            playing = state != Tournament.State.FINISHED if tournament_id else closed is None
            nights[tournament_id or -pk] = Night(pk, date, name or place, playing, tournament_id)
    return list(reversed(nights.values()))
