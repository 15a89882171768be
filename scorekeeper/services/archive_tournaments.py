"""A restored club's tournaments: written after its evenings, in the same transaction.

``exchange.archive_tournaments`` reads them into ``ArchiveTournament`` (players by name,
each table naming its evening by its place among the archive's evenings);
``store_tournaments`` writes them, each table joined to its restored evening and that
evening's one game. Links (a table's, the public ranking's) are new: the archived ones are
not carried over.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from scorekeeper.models import (
    Club,
    Deal,
    Evening,
    Game,
    Player,
    Tournament,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
)


@dataclass
class ArchiveTournamentRound:
    number: int
    started_at: dt.datetime | None
    closed_at: dt.datetime | None
    tables: list[tuple[int, int]]  # (table number, index of its evening in the archive)
    cases: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # table: (deal, case)


@dataclass
class ArchiveTournament:
    name: str
    date: dt.date
    place: str
    rounds: int
    deals_per_round: int
    allow_three: bool
    state: str
    created_at: dt.datetime | None
    entrants: list[tuple[str, bool, bool, dt.datetime | None]]  # name, guest, present, when
    schedule: dict[str, Any]  # players by name
    played: list[ArchiveTournamentRound] = field(default_factory=list)
    kind: str = Tournament.Kind.FREE
    method: str = Tournament.Method.MATCH_POINTS


def _plan_ids(schedule: dict[str, Any], ids: dict[str, int]) -> dict[str, Any]:
    if not schedule.get("rounds"):
        return {}
    return {
        "players": [ids[name] for name in schedule["players"]],
        "rounds": [
            [[ids[name] for name in table] for table in tables] for tables in schedule["rounds"]
        ],
        "searches": schedule.get("searches", 0),
    }


def store_tournaments(
    club: Club, tournaments: list[ArchiveTournament], players: dict[str, Player]
) -> None:
    """The archive's tournaments for ``club``, whose evenings are restored (in order)."""
    if not tournaments:
        return
    evenings = list(Evening.objects.filter(club=club).order_by("pk").values_list("pk", flat=True))
    games = dict(Game.objects.filter(evening__club=club).values_list("evening_id", "pk"))
    ids = {name: player.pk for name, player in players.items()}
    for item in tournaments:
        tournament = Tournament.objects.create(
            club=club,
            name=item.name,
            date=item.date,
            place=item.place,
            rounds=item.rounds,
            deals_per_round=item.deals_per_round,
            allow_three=item.allow_three,
            kind=item.kind,
            method=item.method,
            state=item.state,
            schedule=_plan_ids(item.schedule, ids),
            created_at=item.created_at or timezone.now(),
        )
        TournamentPlayer.objects.bulk_create(
            TournamentPlayer(
                tournament=tournament,
                player_id=ids[name],
                guest=guest,
                present=present,
                registered_at=at or timezone.now(),
            )
            for name, guest, present, at in item.entrants
        )
        if item.schedule.get("movement"):  # a duplicate's players are its entrants, in order
            entrants = dict(tournament.entrants.values_list("player_id", "pk"))
            players_in_order = [entrants[ids[name]] for name in item.schedule["players"]]
            tournament.schedule = {**item.schedule, "players": players_in_order}
            tournament.save(update_fields=["schedule"])
        for played in item.played:
            tournament_round = TournamentRound.objects.create(
                tournament=tournament,
                number=played.number,
                started_at=played.started_at or timezone.now(),
                closed_at=played.closed_at,
            )
            TournamentTable.objects.bulk_create(
                TournamentTable(
                    round=tournament_round,
                    number=number,
                    evening_id=evenings[index],
                    game_id=games[evenings[index]],
                )
                for number, index in played.tables
            )
            _store_cases(played, [games[evenings[index]] for _number, index in played.tables])


def _store_cases(played: ArchiveTournamentRound, games: list[int]) -> None:
    """The case numbers of a round's duplicate deals, by table and deal number."""
    wanted = {
        (game, deal): case
        for (number, _index), game in zip(played.tables, games, strict=True)
        for deal, case in played.cases.get(number, ())
    }
    deals = list(Deal.objects.filter(game_id__in=games, number__gt=0).only("game_id", "number"))
    for deal in deals:
        deal.case_number = wanted.get((deal.game_id, deal.number))
    Deal.objects.bulk_update([d for d in deals if d.case_number], ["case_number"])
