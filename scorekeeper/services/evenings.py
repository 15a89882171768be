"""Evenings, games and who sits at the table."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from scorekeeper.models import Club, Evening, Game, Player, Seat, new_share_token
from scorekeeper.scoring.escopette import ESCOPETTE_PLAYERS
from scorekeeper.scoring.inputs import clean_date, clean_place
from scorekeeper.services.common import ServiceError, _check_open, evening_touch, lock_game
from scorekeeper.services.seasons import season_ensure_for


def _check_roster(
    *, club: Club, kind: str, players: Sequence[Player], first_dealer: Player
) -> None:
    if any(player.club_id != club.pk for player in players):
        raise ServiceError(_("Every player must belong to the club."), "players")
    if len({player.pk for player in players}) != len(players):
        raise ServiceError(_("A player can sit only once."), "players")
    if kind == Game.Kind.ESCOPETTE:
        if len(players) != ESCOPETTE_PLAYERS:
            raise ServiceError(_("L'escopette is played by exactly 4 players."), "players")
    elif not 3 <= len(players) <= 6:
        raise ServiceError(_("French Tarot needs 3 to 6 players present."), "players")
    if first_dealer not in players:
        raise ServiceError(_("The first dealer must be one of the players."), "first_dealer")


@transaction.atomic
def game_start(
    *,
    evening: Evening,
    players: Sequence[Player],
    first_dealer: Player,
    kind: str = Game.Kind.TAROT,
    five_mode: str = Game.FiveMode.FIVE,
    target: int | None = None,
) -> Game:
    _check_open(evening)
    _check_roster(club=evening.club, kind=kind, players=players, first_dealer=first_dealer)
    if kind == Game.Kind.ESCOPETTE and target not in (50, 100):
        raise ServiceError(_("Choose a target of 50 or 100."), "target")
    number = (evening.games.aggregate(last=Max("number"))["last"] or 0) + 1
    game = Game.objects.create(
        evening=evening,
        number=number,
        kind=kind,
        target=target if kind == Game.Kind.ESCOPETTE else None,
        five_mode=five_mode,
        first_dealer=first_dealer,
    )
    Seat.objects.bulk_create(
        Seat(game=game, player=player, position=position)
        for position, player in enumerate(players, start=1)
    )
    evening_touch(evening)
    return game


@transaction.atomic
def evening_start(
    *,
    club: Club,
    players: Sequence[Player],
    first_dealer: Player,
    created_by: User,
    date: dt.date | None = None,
    place: str = "",
    kind: str = Game.Kind.TAROT,
    five_mode: str = Game.FiveMode.FIVE,
    target: int | None = None,
) -> Evening:
    _check_roster(club=club, kind=kind, players=players, first_dealer=first_dealer)
    evening = Evening.objects.create(
        club=club,
        date=clean_date(date or timezone.localdate()),
        place=clean_place(place),
        created_by=created_by,
        rules=dict(club.rules),  # the evening keeps them whatever the club decides later
    )
    season_ensure_for(club=club, date=evening.date)
    game_start(
        evening=evening,
        players=players,
        first_dealer=first_dealer,
        kind=kind,
        five_mode=five_mode,
        target=target,
    )
    return evening


@transaction.atomic
def evening_close(*, evening: Evening) -> Evening:
    if evening.closed_at is None:
        evening.closed_at = timezone.now()
        evening.save(update_fields=["closed_at"])
        evening_touch(evening)
    return evening


@transaction.atomic
def evening_reopen(*, evening: Evening) -> Evening:
    if evening.closed_at is not None:
        evening.closed_at = None
        evening.save(update_fields=["closed_at"])
        evening_touch(evening)
    return evening


@transaction.atomic
def share_link_create(*, evening: Evening) -> Evening:
    evening.share_token = new_share_token()
    evening.save(update_fields=["share_token"])
    return evening


@transaction.atomic
def share_link_revoke(*, evening: Evening) -> Evening:
    evening.share_token = None
    evening.save(update_fields=["share_token"])
    return evening


@transaction.atomic
def seat_join(*, game: Game, player: Player, after: Player | None = None) -> Seat:
    """Seat a player (again) at the table, after ``after`` in seat order or at the end."""
    game = lock_game(game.pk, club=True)
    _check_open(game.evening)
    if player.club_id != game.evening.club_id:
        raise ServiceError(_("Every player must belong to the club."), "player")
    seats = list(game.seats.all())
    present = [seat for seat in seats if seat.present]
    limit = ESCOPETTE_PLAYERS if game.kind == Game.Kind.ESCOPETTE else 6
    existing = next((seat for seat in seats if seat.player_id == player.pk), None)
    if existing is not None and existing.present:
        raise ServiceError(_("%(name)s is already at the table.") % {"name": player}, "player")
    if len(present) >= limit:
        raise ServiceError(_("The table is full."), "player")
    if existing is not None:
        existing.present = True
        existing.save(update_fields=["present"])
        seat = existing
    else:
        position = len(seats) + 1
        if after is not None:
            anchor = next((seat for seat in seats if seat.player_id == after.pk), None)
            if anchor is not None:
                position = anchor.position + 1
                # Make room: move later seats one place on, highest first.
                for later in sorted(seats, key=lambda s: -s.position):
                    if later.position >= position:
                        Seat.objects.filter(pk=later.pk).update(position=later.position + 1)
        seat = Seat.objects.create(game=game, player=player, position=position)
    evening_touch(game.evening)
    return seat


@transaction.atomic
def seat_leave(*, game: Game, player: Player) -> None:
    game = lock_game(game.pk)
    _check_open(game.evening)
    present = list(game.seats.filter(present=True))
    seat = next((seat for seat in present if seat.player_id == player.pk), None)
    if seat is None:
        raise ServiceError(_("%(name)s is not at the table.") % {"name": player}, "player")
    minimum = ESCOPETTE_PLAYERS if game.kind == Game.Kind.ESCOPETTE else 3
    if len(present) - 1 < minimum:
        raise ServiceError(_("Too few players would remain at the table."), "player")
    seat.present = False
    seat.save(update_fields=["present"])
    evening_touch(game.evening)


# --- The table: who deals, who sits out --------------------------------------------------


def present_players(game: Game) -> list[Player]:
    """The players at the table now, in seat order."""
    seats = Seat.objects.filter(game=game, present=True).select_related("player")
    return [seat.player for seat in seats.order_by("position")]


def next_dealer(game: Game, present: Sequence[Player] | None = None) -> Player:
    """Who deals next: the first dealer, then the next player present in seat order."""
    present = list(present if present is not None else present_players(game))
    positions = dict(game.seats.values_list("player_id", "position"))
    last_dealer = game.deals.order_by("-number").values_list("dealer_id", flat=True).first()
    return dealer_after(game, present, positions, last_dealer)


def dealer_after(
    game: Game, present: Sequence[Player], positions: dict[int, int], last_dealer: int | None
) -> Player:
    """The player present after ``last_dealer`` in seat order (the first dealer to begin)."""
    if last_dealer is None:
        start, inclusive = positions.get(game.first_dealer_id, 0), True
    else:
        start, inclusive = positions.get(last_dealer, 0), False
    for player in present:
        position = positions[player.pk]
        if position > start or (inclusive and position == start):
            return player
    return present[0]


def default_sitting_out(game: Game, present: Sequence[Player], dealer: Player) -> list[Player]:
    """With 6 at the table (or 5 playing the 4-player game) the dealer sits out."""
    if game.kind == Game.Kind.TAROT and (
        len(present) == 6 or (len(present) == 5 and game.five_mode == Game.FiveMode.FOUR)
    ):
        return [dealer]
    return []
