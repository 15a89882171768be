"""A club with a tournament and its players registered, for the tournament tests."""

from __future__ import annotations

from scorekeeper import services
from scorekeeper.models import Club, Player, Tournament
from tests.factories import make_club, make_user


def make_tournament(
    n_players: int = 16,
    *,
    rounds: int = 3,
    deals: int = 2,
    email: str = "ana@example.com",
    kind: str = "free",
) -> tuple[Club, list[Player], Tournament]:
    names = [f"Player {i:02d}" for i in range(1, n_players + 1)]
    club, players = make_club(make_user(email), players=names)
    owner = club.memberships.get(role="owner").user
    tournament = services.tournament_create(
        club=club,
        created_by=owner,
        name="Donnes libres",
        rounds=rounds,
        deals_per_round=deals,
        kind=kind,
    )
    for player in players:
        services.tournament_register(tournament=tournament, player=player)
    return club, players, tournament
