"""Imports: a deal sheet or a season file, all or nothing."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from accounts.models import User
from scorekeeper.models import (
    Club,
    Evening,
    Game,
    Player,
)
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.sheet import AnyDeal, Sheet, map_players
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal
from scorekeeper.services.common import DealInputs, ServiceError
from scorekeeper.services.deals import deal_record
from scorekeeper.services.evenings import evening_start


def _import_player(club: Club, name: str) -> Player:
    """The club's player of that name (any case), created when missing."""
    name = " ".join(name.split())
    if len(name) > Player._meta.get_field("name").max_length:
        raise ScoringError("players", f"{name} is longer than 40 characters")
    player = club.players.filter(name__iexact=name).first()
    return player if player is not None else Player.objects.create(club=club, name=name)


def _import_inputs(deal: AnyDeal, ids: dict[str, int]) -> DealInputs:
    """A sheet's deal (players by name) as the scoring service's deal (players by id)."""
    return map_players(deal, ids.__getitem__)


@transaction.atomic
def evening_import(
    *,
    club: Club,
    sheet: Sheet,
    created_by: User | None,
    date: dt.date | None = None,
    place: str = "",
) -> Evening:
    """A deal sheet as a new evening of the club: all of it, or nothing (a ScoringError).

    Players are matched by name, ignoring case, and created when missing; the sheet's order is
    the seat order and its first player the first dealer. The sheet does not carry dealers:
    the deal goes round from there, except that a lone player sitting out is the dealer.
    Every deal is scored again through ``deal_record``; errors read as ``score_deals``'s.
    """
    players: list[Player] = []
    for name in sheet.players:
        player = _import_player(club, name)
        if player in players:
            other = sheet.players[players.index(player)]
            raise ScoringError("players", f"{other} and {name} are the same player")
        players.append(player)
    kind = Game.Kind.ESCOPETTE if sheet.game == "escopette" else Game.Kind.TAROT
    try:
        evening = evening_start(
            club=club,
            players=players,
            first_dealer=players[0],
            created_by=created_by,  # type: ignore[arg-type]
            date=date,
            place=place,
            kind=kind,
            target=sheet.target,
        )
    except ServiceError as error:
        raise ScoringError(error.field or "sheet", error.message) from None
    game = evening.games.get()
    ids = {name: player.pk for name, player in zip(sheet.players, players, strict=True)}
    by_name = dict(zip(sheet.players, players, strict=True))
    for number, deal in enumerate(sheet.deals, start=1):
        dealer = None
        if isinstance(deal, TarotDeal | PassedDeal):
            away = [name for name in sheet.players if name not in deal.seated]
            if len(away) == 1:
                dealer = by_name[away[0]]
        try:
            deal_record(
                game=game, inputs=_import_inputs(deal, ids), dealer=dealer, created_by=created_by
            )
        except ScoringError as error:
            raise error.with_deal(number) from None
        except ServiceError as error:
            raise ScoringError(error.field or "deal", error.message, number) from None
    return evening
