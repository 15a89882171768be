"""A restored club's tournaments, written after its evenings in the same transaction, each
table joined to its restored evening; their links are new."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from scorekeeper.models import (
    Club,
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
