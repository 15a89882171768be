"""Small builders for tests: a club with players, an evening at the table."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import Club, Evening, Game, Player

NAMES = ("Ana", "Ben", "Chloé", "Dan", "Eve", "Fay")


def make_user(email: str = "ana@example.com", name: str = "Ana") -> User:
    return User.objects.create_user(email, display_name=name)


def make_club(
    owner: User | None = None, *, players: Sequence[str] = NAMES[:4], name: str = "Les Bouts"
) -> tuple[Club, list[Player]]:
    owner = owner or make_user()
    club = services.club_create(name=name, owner=owner)
    return club, [services.player_add(club=club, name=n) for n in players]


def make_member(club: Club, email: str = "ben@example.com", name: str = "Ben") -> User:
    user = make_user(email, name)
    club.memberships.create(user=user, role="member")
    return user


def start_evening(
    club: Club,
    players: Sequence[Player],
    *,
    by: User | None = None,
    five_mode: str = Game.FiveMode.FIVE,
    date: dt.date | None = None,
    place: str = "",
) -> tuple[Evening, Game]:
    owner = by or club.memberships.get(role="owner").user
    evening = services.evening_start(
        club=club,
        players=players,
        first_dealer=players[0],
        created_by=owner,
        five_mode=five_mode,
        date=date,
        place=place,
    )
    return evening, evening.games.get()


def followed_table() -> tuple[Club, list[Player], User, Evening, Game]:
    """A club, its four players at tonight's table, and a member who follows it from a phone
    (the live polls' tests): the evening as stored."""
    club, players = make_club()
    member = make_member(club)
    evening, game = start_evening(club, players)
    evening.refresh_from_db()
    return club, players, member, evening, game


def deal_post(**fields: object) -> dict[str, object]:
    """A deal form's POST data; keys without the "deal-" prefix."""
    data: dict[str, object] = {"deal-points_for": "attack"}
    for key, value in fields.items():
        data[f"deal-{key}"] = value
    return data
