"""Evenings and seasons out (CSV, the deal sheet JSON) and deal sheets in.

Shared by the export and import views and by the ``export_evening``, ``export_season`` and
``import_sheet`` management commands. Reading an evening or a season takes the same handful
of queries whatever its size.

- CSV: UTF-8 with a byte order mark (so a spreadsheet keeps accented names), a row per deal,
  a column per player. Deals are numbered through the evening (across its games).
- JSON: the deal sheet of ``scorekeeper.scoring.sheet`` for a game; an evening's export is
  its first game's sheet (``game=`` for another). A season is
  ``{"season": name, "start", "end", "evenings": [{"date", "place", "game", "sheet"}, ...]}``:
  one entry per game, so one per evening unless an evening held several games.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from scorekeeper import services
from scorekeeper.models import Club, Deal, DealScore, Evening, Game, Player, Season, Seat
from scorekeeper.scoring.errors import ScoringError, show_points
from scorekeeper.scoring.sheet import (
    Sheet,
    load_sheet_text,
    parse_sheet,
    sheet_from_deals,
    sheet_to_data,
)
from scorekeeper.scoring.tarot import PassedDeal, deal_outcome
from scorekeeper.sheets import result_text, stored_inputs
from scorekeeper.stats import CONTRACT_LABELS

CSV_CONTENT_TYPE = "text/csv; charset=utf-8"
JSON_CONTENT_TYPE = "application/json; charset=utf-8"
BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class GameData:
    """A game as stored: its seats' players and its deals with their scores."""

    evening: Evening
    game: Game
    players: list[Player]  # seat order
    deals: list[Deal]  # number order, scores prefetched


def _load(evenings: QuerySet[Evening]) -> list[GameData]:
    """Every game of these evenings, in date order: five queries, whatever the size."""
    evening_list = list(evenings.order_by("date", "pk"))
    games = list(
        Game.objects.filter(evening__in=evening_list)
        .order_by("evening__date", "evening_id", "number")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("player").order_by("position"),
            ),
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


def _names(club_id: int) -> dict[int, str]:
    return dict(Player.objects.filter(club_id=club_id).values_list("pk", "name"))


# --- The deal sheet ----------------------------------------------------------------------


def _sheet_deal(deal: Deal, game: Game, names: dict[int, str]) -> Any:
    return stored_inputs(deal, game.kind, key=names.__getitem__)


def _sheet(data: GameData, names: dict[int, str]) -> Sheet:
    """The game as a validated deal sheet (a ScoringError if it cannot be one)."""
    players = [player.name for player in data.players]
    for deal in data.deals:  # a player scored but no longer seated (removed by the admin)
        for score in deal.scores.all():
            if names[score.player_id] not in players:
                players.append(names[score.player_id])
    return sheet_from_deals(
        players,
        [_sheet_deal(deal, data.game, names) for deal in data.deals],
        game=data.game.kind,
        target=data.game.target if data.game.kind == Game.Kind.ESCOPETTE else None,
    )


def evening_sheet(evening: Evening, number: int = 1) -> Sheet:
    """The deal sheet of one game of the evening (its first by default)."""
    games = _load(Evening.objects.filter(pk=evening.pk))
    data = next((g for g in games if g.game.number == number), None)
    if data is None:
        raise ScoringError("game", f"this evening has no game {number}")
    return _sheet(data, _names(evening.club_id))


def evening_json(evening: Evening, number: int = 1) -> str:
    return json.dumps(sheet_to_data(evening_sheet(evening, number)), ensure_ascii=False, indent=2)


def season_evenings(season: Season) -> QuerySet[Evening]:
    return Evening.objects.filter(
        club_id=season.club_id, date__gte=season.start, date__lte=season.end
    )


def season_data(season: Season) -> dict[str, Any]:
    names = _names(season.club_id)
    return {
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
            for data in _load(season_evenings(season))
        ],
    }


def season_json(season: Season) -> str:
    return json.dumps(season_data(season), ensure_ascii=False, indent=2)


# --- CSV ------------------------------------------------------------------------------------


def _cell(value: object) -> object:
    """Text a spreadsheet would take for a formula starts with an apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _result(deal: Deal, game: Game) -> str:
    if game.kind != Game.Kind.TAROT:
        return ""
    inputs = stored_inputs(deal, game.kind)
    if isinstance(inputs, PassedDeal):
        return result_text(deal, None)
    try:
        return result_text(deal, deal_outcome(inputs))
    except ScoringError:
        return ""


def _csv(games: Sequence[GameData], players: Sequence[int], names: dict[int, str]) -> str:
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out)
    writer.writerow(
        [
            _("Evening date"),
            _("Deal"),
            _("Dealer"),
            _("Taker"),
            _("Contract"),
            _("Bouts"),
            _("Points"),
            _("Result"),
            *(_cell(names[player]) for player in players),
        ]
    )
    numbers: dict[int, int] = {}
    for data in games:
        for deal in data.deals:
            number = numbers[data.evening.pk] = numbers.get(data.evening.pk, 0) + 1
            scores = {score.player_id: score.score for score in deal.scores.all()}
            played = data.game.kind == Game.Kind.TAROT and not deal.passed
            writer.writerow(
                [
                    data.evening.date.isoformat(),
                    number,
                    _cell(names.get(deal.dealer_id, "")),
                    _cell(names.get(deal.taker_id, "")) if played else "",
                    str(CONTRACT_LABELS.get(deal.contract, deal.contract)) if played else "",
                    deal.bouts if played else "",
                    show_points(deal.points) if played and deal.points is not None else "",
                    _result(deal, data.game),
                    *(scores.get(player, "") for player in players),
                ]
            )
    return out.getvalue()


def _columns(games: Iterable[GameData], *, by_name: bool, names: dict[int, str]) -> list[int]:
    """Everyone who sat at these games: in seat order, or by name for a season."""
    players: dict[int, None] = {}
    for data in games:
        for player in data.players:
            players.setdefault(player.pk)
        for deal in data.deals:
            for score in deal.scores.all():
                players.setdefault(score.player_id)
    ids = list(players)
    if by_name:
        ids.sort(key=lambda pk: (names[pk].casefold(), pk))
    return ids


def evening_csv(evening: Evening) -> str:
    games = _load(Evening.objects.filter(pk=evening.pk))
    names = _names(evening.club_id)
    return _csv(games, _columns(games, by_name=False, names=names), names)


def season_csv(season: Season) -> str:
    games = _load(season_evenings(season))
    names = _names(season.club_id)
    return _csv(games, _columns(games, by_name=True, names=names), names)


def evening_filename(evening: Evening, extension: str) -> str:
    return f"evening-{evening.date.isoformat()}-{evening.pk}.{extension}"


def season_filename(season: Season, extension: str) -> str:
    return f"season-{season.start.isoformat()}-{season.pk}.{extension}"


# --- Import ---------------------------------------------------------------------------------


class ImportRefused(Exception):
    """A file that cannot be imported; ``line`` reads as ``score_deals`` prints it."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


@dataclass(frozen=True)
class ImportEntry:
    sheet: Sheet
    date: dt.date | None = None
    place: str = ""


def one_line(error: ScoringError) -> str:
    """The error as ``score_deals`` prints it: ``deal 3: points: 93 is more than 91``."""
    return " ".join(str(error).split())


def _season_entries(data: dict[str, Any]) -> list[ImportEntry]:
    entries = data.get("evenings")
    if not isinstance(entries, list):
        raise ImportRefused("evenings: not a list of evenings")
    result = []
    for number, entry in enumerate(entries, start=1):
        try:
            if not isinstance(entry, dict):
                raise ScoringError("evening", "not a JSON object")
            try:
                date = dt.date.fromisoformat(str(entry.get("date")))
            except ValueError:
                raise ScoringError("date", f"{entry.get('date')!r} is not a date") from None
            place = entry.get("place") or ""
            if not isinstance(place, str):
                raise ScoringError("place", f"{place!r} is not text")
            result.append(
                ImportEntry(sheet=parse_sheet(entry.get("sheet")), date=date, place=place)
            )
        except ScoringError as error:
            raise ImportRefused(f"evening {number}: {one_line(error)}") from None
    return result


def read_import(text: str | bytes) -> list[ImportEntry]:
    """A deal sheet (one evening), or a season export (one evening per entry)."""
    try:
        raw = text.decode("utf-8") if isinstance(text, bytes) else text
        data = json.loads(raw.removeprefix(BOM))
    except (UnicodeDecodeError, ValueError, RecursionError):
        data = None
    if isinstance(data, dict) and "season" in data and "evenings" in data:
        return _season_entries(data)
    try:
        return [ImportEntry(sheet=load_sheet_text(text))]
    except ScoringError as error:
        raise ImportRefused(one_line(error)) from None


def import_entries(
    *,
    club: Club,
    entries: Sequence[ImportEntry],
    created_by: Any,
    date: dt.date | None = None,
    place: str = "",
) -> list[Evening]:
    """Every entry as a new evening, all in one transaction: all of them or none."""
    evenings = []
    with transaction.atomic():
        for number, entry in enumerate(entries, start=1):
            try:
                evenings.append(
                    services.evening_import(
                        club=club,
                        sheet=entry.sheet,
                        created_by=created_by,
                        date=entry.date or date,
                        place=entry.place if entry.date else place,
                    )
                )
            except ScoringError as error:
                prefix = f"evening {number}: " if len(entries) > 1 else ""
                raise ImportRefused(prefix + one_line(error)) from None
    return evenings
