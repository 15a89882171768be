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

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from scorekeeper import services
from scorekeeper.exchange import csv_format
from scorekeeper.exchange.csv_format import csv_entries, write_csv
from scorekeeper.exchange.error_text import error_text
from scorekeeper.models import Club, Deal, DealScore, Evening, Game, Player, Season, Seat
from scorekeeper.reads.game_sheets import result_text, stored_inputs
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.inputs import clean_date, clean_place
from scorekeeper.scoring.rules import FFT_RULES, HouseRules
from scorekeeper.scoring.sheet import (
    Sheet,
    load_sheet_text,
    parse_sheet,
    sheet_from_deals,
    sheet_to_data,
)
from scorekeeper.scoring.tarot import PassedDeal, deal_outcome
from scorekeeper.services.imports import SheetEntry

SEASON_VERSION = 2  # 2: sheets name their dealers, an evening's games share date and place
IMPORT_MAX_DEALS = 10_000  # what one import (page or command) may bring in

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
        .select_related("evening")  # its house rules
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


def game_rules(game: Game) -> HouseRules:
    """The house rules a game's deals are scored by: its evening's (none for L'escopette)."""
    return game.evening.house_rules if game.kind == Game.Kind.TAROT else FFT_RULES


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
        dealers=[names[deal.dealer_id] for deal in data.deals],
        rules=game_rules(data.game),
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
    if game.kind != Game.Kind.TAROT or deal.paper:
        return ""
    inputs = stored_inputs(deal, game.kind)
    if isinstance(inputs, PassedDeal):
        return result_text(deal, None)
    try:
        return result_text(deal, deal_outcome(inputs, game_rules(game)))
    except ScoringError:
        return ""


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
    return write_csv(games, _columns(games, by_name=False, names=names), names, _result)


def season_csv(season: Season) -> str:
    games = _load(season_evenings(season))
    names = _names(season.club_id)
    return write_csv(games, _columns(games, by_name=True, names=names), names, _result)


def evening_filename(evening: Evening, extension: str) -> str:
    return f"evening-{evening.date.isoformat()}-{evening.pk}.{extension}"


def season_filename(season: Season, extension: str) -> str:
    return f"season-{season.start.isoformat()}-{season.pk}.{extension}"


# --- Import ---------------------------------------------------------------------------------


class ImportRefused(Exception):
    """A file that cannot be imported: the error, and the evening of the file it is in.

    ``line`` reads as ``score_deals`` prints it (English); ``text()`` says it in the active
    language.
    """

    def __init__(self, error: ScoringError, evening: int | None = None) -> None:
        self.error = error
        self.evening = evening
        self.line = (f"evening {evening}: " if evening else "") + one_line(error)
        super().__init__(self.line)

    def text(self) -> str:
        return error_text(self.error, evening=self.evening)


def one_line(error: ScoringError) -> str:
    """The error as ``score_deals`` prints it: ``deal 3: points: 93 is more than 91``."""
    return " ".join(str(error).split())


def _season_entries(data: dict[str, Any]) -> list[SheetEntry]:
    entries = data.get("evenings")
    if not isinstance(entries, list):
        raise ImportRefused(
            ScoringError.coded("evenings", "not_evening_list", "not a list of evenings")
        )
    if data.get("version", 1) not in (1, SEASON_VERSION):
        error = ScoringError.coded(
            "version",
            "version",
            "%(value)s is not a version this app reads (1 to %(latest)s)",
            value=repr(data.get("version")),
            latest=SEASON_VERSION,
        )
        raise ImportRefused(error)
    result = []
    evening = 0
    for number, entry in enumerate(entries, start=1):
        try:
            if not isinstance(entry, dict):
                raise ScoringError.coded(
                    "evening", "not_object", "%(value)s is not a JSON object", value=repr(entry)
                )
            date = clean_date(entry.get("date"))
            place = clean_place(entry.get("place") or "")
            game = entry.get("game", 1)
            if (
                not result
                or game in (1, None)
                or not isinstance(game, int)
                or (result[-1].date != date or result[-1].place != place)
            ):
                evening += 1
            result.append(
                SheetEntry(
                    sheet=parse_sheet(entry.get("sheet")), date=date, place=place, evening=evening
                )
            )
        except ScoringError as error:
            raise ImportRefused(error, number) from None
    return result


def _refusal(error: ScoringError) -> ImportRefused:
    return ImportRefused(error, getattr(error, "evening_number", None))


def read_import(text: str | bytes) -> list[SheetEntry]:
    """A deal sheet (one evening), a season export (one evening per entry) or a CSV."""
    try:
        raw = text.decode("utf-8") if isinstance(text, bytes) else text
    except UnicodeDecodeError:
        # French Excel saves "CSV (point-virgule)" in Windows-1252: take it for a CSV.
        raw = text.decode("cp1252", errors="replace") if isinstance(text, bytes) else ""
        if not raw.strip() or raw.lstrip().startswith(("{", "[")):
            error = ScoringError.coded("sheet", "not_utf8", "not valid UTF-8 text")
            raise ImportRefused(error) from None
    raw = raw.removeprefix(BOM)
    if not raw.lstrip().startswith(("{", "[")) and raw.strip():
        try:
            return csv_entries(raw)
        except ScoringError as error:
            raise _refusal(error) from None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict) and "season" in data and "evenings" in data:
        entries = _season_entries(data)
    else:
        try:
            entries = [SheetEntry(sheet=load_sheet_text(raw))]
        except ScoringError as error:
            raise ImportRefused(error) from None
    check_size(entries)
    return entries


def check_size(entries: Sequence[SheetEntry]) -> None:
    """At most ``IMPORT_MAX_DEALS`` deals in one import."""
    count = sum(len(entry.sheet.deals) for entry in entries)
    if count > IMPORT_MAX_DEALS:
        raise ImportRefused(
            ScoringError.coded(
                "sheet",
                "too_many_deals",
                "%(count)s deals: one import takes at most %(limit)s",
                count=count,
                limit=IMPORT_MAX_DEALS,
            )
        )


def import_entries(
    *,
    club: Club,
    entries: Sequence[SheetEntry],
    created_by: Any,
    date: dt.date | None = None,
    place: str = "",
    skip_existing: bool = False,
) -> list[Evening]:
    """Every entry as a new closed evening, all in one transaction: all of them or none."""
    try:
        return services.evenings_import(
            club=club,
            entries=entries,
            created_by=created_by,
            date=date,
            place=place,
            skip_existing=skip_existing,
        )
    except ScoringError as error:
        raise _refusal(error) from None


def paper_template_csv() -> str:
    return csv_format.paper_template()
