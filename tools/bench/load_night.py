"""``manage.py loadtest``'s default load, a real club night: many clubs and a tournament.

Each club is the benchmark's synthetic club with a history of its own (``--deals`` deals: its
members, its 12 regulars, its season) playing 3 to 8 tables tonight (``CLUB_TABLES`` club after
club: 5 on average, so 300 tables are 60 clubs), each table with players of its own (nobody
sits at two tables) and five phones that follow and save as the evening page does
(``load_scenarios``). One more club runs a tournament of ``--tournament-tables`` tables (20):
its tables' phones save a deal every two minutes too and follow their table, phones follow
the public ranking and the organiser the tournament's page (``load_tournament``).
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

from tools.bench.load_club import (
    DEAL_EVERY,
    DEALS_PLAYED,
    Table,
    played_in_the_last_minutes,
    seat_tables,
)
from tools.bench.load_scenarios import Kind, kinds, streams, warm_up
from tools.bench.load_tournament import (
    TournamentLoad,
    build_tournament,
    tournament_kinds,
    tournament_streams,
    tournament_warm_up,
)
from tools.bench.synthetic_club import build

#: The tables each club plays, club after club (3 to 8, 5 on average).
CLUB_TABLES = (3, 4, 5, 6, 7, 8, 5, 4, 3, 5)
#: A round of the night's tournament: its tables go on saving at a table's pace for 15 minutes
#: (the longest load) after the deals already played, as the clubs' tables do.
TOURNAMENT_DEALS = DEALS_PLAYED + 10
TOURNAMENT_TABLES = 20


@dataclass
class Night:
    clubs: int  # the clubs playing, the tournament's apart
    tables: list[Table]  # the clubs' tables
    tournament: TournamentLoad | None


def club_sizes(tables: int) -> list[int]:
    """The tables of each club, ``CLUB_TABLES`` in turn, the last club taking what is left."""
    sizes: list[int] = []
    for size in itertools.cycle(CLUB_TABLES):
        left = tables - sum(sizes)
        if left <= 0:
            return sizes
        sizes.append(min(size, left))
    raise AssertionError("unreachable")  # pragma: no cover


def build_night(
    deals: int, tables: int, secret_key: str, *, tournament_tables: int = TOURNAMENT_TABLES
) -> Night:
    """``tables`` tables of clubs of their own, each club with ``deals`` deals of history, and
    a tournament of ``tournament_tables`` tables (none for 0)."""
    seats: list[Table] = []
    sizes = club_sizes(tables)
    for number, size in enumerate(sizes, start=1):
        seats.extend(seat_tables(build(deals, number=number), size, secret_key, seating="own"))
    played_in_the_last_minutes([seat.game_id for seat in seats])
    tournament = None
    if tournament_tables:
        tournament = build_tournament(
            deals,
            tournament_tables,
            secret_key,
            deals_per_round=TOURNAMENT_DEALS,
            played=DEALS_PLAYED,
            number=len(sizes) + 1,
            ranking_phones=tournament_tables,
        )
    return Night(len(sizes), seats, tournament)


def night_kinds(night: Night, *, figures: bool = False, live: str = "poll") -> list[Kind]:
    """The clubs' tables' kinds of request, and the tournament's (named "tournament ...", its
    deals saved at a table's pace; the login page is the clubs' yardstick alone); ``live``
    (``load_scenarios.LIVE``): how the phones follow their evening."""
    sent = kinds(night.tables, figures=figures, live=live)
    if night.tournament is not None:
        login = sent.pop()
        sent.extend(
            dataclasses.replace(kind, name=f"tournament {kind.name.removeprefix('last ')}")
            for kind in tournament_kinds(night.tournament, save_every=DEAL_EVERY, live=live)
            if kind.name != "login page"
        )
        sent.append(login)
    return sent


def night_streams(night: Night) -> list[tuple[str, str]]:
    """Every phone's event stream (``--live events``): the clubs' tables' phones, and each
    tournament table's."""
    found = streams(night.tables)
    if night.tournament is not None:
        found.extend(tournament_streams(night.tournament))
    return found


def night_warm_up(origin: str, night: Night, *, figures: bool = False) -> None:
    """Every club's tables and pages as a running server has them, and the tournament's."""
    warm_up(origin, night.tables, figures=figures)
    if night.tournament is not None:
        tournament_warm_up(origin, night.tournament)
