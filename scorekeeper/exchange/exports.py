"""Evenings and seasons out, for the export views and commands, in a handful of queries: CSV
(``csv_format``) and the deal sheet JSON (an evening: its first game's sheet, ``game=`` for
another; a season: ``{"season", "start", "end", "evenings": [{"date", "place", "game",
"sheet"}]}``).
"""

from __future__ import annotations

import json
from typing import Any

from django.db.models import QuerySet

from scorekeeper.exchange.csv_format import write_csv
from scorekeeper.exchange.game_data import GameData, load_games
from scorekeeper.models import Deal, Evening, Game, Season, stored_inputs
from scorekeeper.reads.club_figures import player_names
from scorekeeper.reads.game_sheets import result_text
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.rules import FFT_RULES, HouseRules
from scorekeeper.scoring.sheet import Sheet, sheet_from_deals, sheet_to_data
from scorekeeper.scoring.tarot import PassedDeal, deal_outcome
from scorekeeper.server.wording import name_order

SEASON_VERSION = 2  # 2: sheets name their dealers, an evening's games share date and place


# --- The deal sheet ----------------------------------------------------------------------


def game_rules(game: Game) -> HouseRules:
    """The house rules a game's deals are scored by: its evening's (none for L'escopette)."""
    return game.evening.house_rules if game.kind == Game.Kind.TAROT else FFT_RULES


def _sheet(data: GameData, names: dict[int, str]) -> Sheet:
    """The game as a validated deal sheet (a ScoringError if it cannot be one)."""
    players = [player.name for player in data.players]
    for deal in data.deals:  # a player scored but no longer seated (removed by the admin)
        for score in deal.scores.all():
            if names[score.player_id] not in players:
                players.append(names[score.player_id])
    return sheet_from_deals(
        players,
        [stored_inputs(d, data.game.kind, key=names.__getitem__) for d in data.deals],
        game=data.game.kind,
        target=data.game.target if data.game.kind == Game.Kind.ESCOPETTE else None,
        dealers=[names[deal.dealer_id] for deal in data.deals],
        rules=game_rules(data.game),
    )


def evening_sheet(evening: Evening, number: int = 1) -> Sheet:
    """The deal sheet of one game of the evening (its first by default)."""
    games = load_games(Evening.objects.filter(pk=evening.pk))
    data = next((g for g in games if g.game.number == number), None)
    if data is None:
        raise ScoringError("game", f"this evening has no game {number}")
    return _sheet(data, player_names(evening.club_id))


def evening_json(evening: Evening, number: int = 1) -> str:
    return json.dumps(sheet_to_data(evening_sheet(evening, number)), ensure_ascii=False, indent=2)


def season_evenings(season: Season) -> QuerySet[Evening]:
    return Evening.objects.filter(
        club_id=season.club_id, date__gte=season.start, date__lte=season.end
    )


def season_data(season: Season) -> dict[str, Any]:
    names = player_names(season.club_id)
    return {
        "version": SEASON_VERSION,
        "season": season.name,
        "start": season.start.isoformat(),
        "end": season.end.isoformat(),
        "evenings": [
            {
                "date": data.evening.date.isoformat(),
                "place": data.evening.place,
                "game": data.game.number,
                "sheet": sheet_to_data(_sheet(data, names)),
            }
            for data in load_games(season_evenings(season))
        ],
    }


def season_json(season: Season) -> str:
    return json.dumps(season_data(season), ensure_ascii=False, indent=2)


# --- CSV ------------------------------------------------------------------------------------


def _result(deal: Deal, game: Game) -> str:
    if game.kind != Game.Kind.TAROT or deal.paper:
        return ""
    inputs = stored_inputs(deal, game.kind)
    if isinstance(inputs, PassedDeal):
        return result_text(deal, None)
    try:
        return result_text(deal, deal_outcome(inputs, game_rules(game)))
    except ScoringError:
        return ""


def _csv(evenings: QuerySet[Evening], club_id: int, *, by_name: bool) -> str:
    """The evenings' games as CSV, a column for everyone who sat at them: in seat order, or
    by name for a season."""
    games = load_games(evenings)
    names = player_names(club_id)
    players: dict[int, None] = {}
    for data in games:
        for player in data.players:
            players.setdefault(player.pk)
        for deal in data.deals:
            for score in deal.scores.all():
                players.setdefault(score.player_id)
    ids = list(players)
    if by_name:
        ids.sort(key=lambda pk: (name_order(names[pk]), pk))
    return write_csv(games, ids, names, _result)


def evening_csv(evening: Evening) -> str:
    return _csv(Evening.objects.filter(pk=evening.pk), evening.club_id, by_name=False)


def season_csv(season: Season) -> str:
    return _csv(season_evenings(season), season.club_id, by_name=True)


def evening_filename(evening: Evening, extension: str) -> str:
    return f"evening-{evening.date.isoformat()}-{evening.pk}.{extension}"


def season_filename(season: Season, extension: str) -> str:
    return f"season-{season.start.isoformat()}-{season.pk}.{extension}"


def one_line(error: ScoringError) -> str:
    """The error as ``score_deals`` prints it: ``deal 3: points: 93 is more than 91``."""
    return " ".join(str(error).split())
