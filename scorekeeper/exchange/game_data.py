"""Games as stored, loaded for exports and archives in five queries whatever the size."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from scorekeeper.models import Deal, DealScore, Evening, Game, Player, Seat

CSV_CONTENT_TYPE = "text/csv; charset=utf-8"
JSON_CONTENT_TYPE = "application/json; charset=utf-8"
BOM = "\ufeff"


@dataclass
class GameData:
    """A game as stored: its seats' players and its deals with their scores."""

    evening: Evening
    game: Game
    players: list[Player]  # seat order
    deals: list[Deal]  # number order, scores prefetched


def load_games(evenings: QuerySet[Evening]) -> list[GameData]:
    """Every game of these evenings, in date order: five queries, whatever the size."""
    evening_list = list(evenings.order_by("date", "pk"))
    games = list(
        Game.objects.filter(evening__in=evening_list)
        .select_related("evening")  # its house rules
        .order_by("evening__date", "evening_id", "number")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch(
                "deals",
                queryset=Deal.objects.order_by("number").prefetch_related(
                    Prefetch("scores", queryset=DealScore.objects.order_by("pk"))
                ),
            ),
        )
    )
    by_id = {evening.pk: evening for evening in evening_list}
    return [
        GameData(
            evening=by_id[game.evening_id],
            game=game,
            players=[seat.player for seat in game.seats.all()],
            deals=list(game.deals.all()),
        )
        for game in games
    ]
