"""The deal sheet, the JSON exchange format for a whole game: read (``parse_sheet``,
``load_sheet_text``) and scored (``score_sheet``); the value is ``sheet_model``'s, each deal
``sheet_deals``'s, writing ``sheet_write``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import check_target, escopette_game
from scorekeeper.scoring.paper import PaperDeal, score_paper_deal
from scorekeeper.scoring.rules import FFT_RULES, HouseRules, rules_from_data
from scorekeeper.scoring.sheet_deals import (
    escopette_deal,
    read_player,
    read_players,
    tarot_deal,
)
from scorekeeper.scoring.sheet_json import (
    as_whole,
    check_keys,
    load_json,
    not_object,
    required,
    show,
)
from scorekeeper.scoring.sheet_model import GAMES, SHEET_KEYS, SHEET_VERSION, AnyDeal, Sheet
from scorekeeper.scoring.sheet_write import sheet_to_data
from scorekeeper.scoring.tarot import score_deal, totals


def parse_sheet(data: object) -> Sheet:
    """Check a sheet (the JSON object, already decoded) and build it; every deal is validated."""
    if not isinstance(data, dict):
        raise ScoringError.coded("sheet", "sheet_not_object", "a deal sheet is a JSON object")
    check_keys(data, SHEET_KEYS, "the sheet")
    if "version" in data and data["version"] not in range(1, SHEET_VERSION + 1):
        raise ScoringError.coded(
            "version",
            "version",
            "%(value)s is not a version this app reads (1 to %(latest)s)",
            value=show(data["version"]),
            latest=SHEET_VERSION,
        )
    game = data.get("game", "tarot")
    if game not in GAMES or not isinstance(game, str):
        raise ScoringError.coded(
            "game",
            "not_game",
            "%(value)s is not a game (%(options)s)",
            value=show(game),
            options=", ".join(GAMES),
        )
    players = read_players(required(data, "players"), game)
    target: int | None = None
    if game == "escopette":
        target = check_target(as_whole(required(data, "target"), "target"))
    elif "target" in data:
        raise ScoringError.coded("target", "target_tarot", "only l'escopette has a target")
    rules = _sheet_rules(data, game)
    raw_deals = required(data, "deals")
    if not isinstance(raw_deals, list):
        raise ScoringError.coded(
            "deals", "not_deal_list", "%(value)s is not a list of deals", value=show(raw_deals)
        )
    deals: list[AnyDeal] = []
    dealers: list[str | None] = []
    for number, raw in enumerate(raw_deals, start=1):
        try:
            if not isinstance(raw, dict):
                raise not_object("deal", raw)
            if game == "escopette":
                deals.append(escopette_deal(raw, players))
            else:
                deals.append(tarot_deal(raw, players, rules))
            dealer = raw.get("dealer")
            dealers.append(None if dealer is None else read_player(dealer, "dealer", players, ()))
        except ScoringError as error:
            raise error.with_deal(number) from None
    named = any(dealer is not None for dealer in dealers)
    sheet = Sheet(
        game=game,
        players=players,
        target=target,
        deals=tuple(deals),
        dealers=tuple(dealers) if named else (),
        rules=rules,
    )
    if game == "escopette":
        _escopette_result(sheet)  # a deal after the end of the game is an error
    return sheet


def _sheet_rules(data: dict[str, Any], game: str) -> HouseRules:
    if "rules" not in data:
        return FFT_RULES
    if game == "escopette":
        raise ScoringError.coded(
            "rules", "rules_escopette", "l'escopette is scored by its stakes: it has no rules"
        )
    return rules_from_data(data["rules"])


def _escopette_result(sheet: Sheet) -> Any:
    return escopette_game(sheet.players, sheet.target or 0, sheet.deals)  # type: ignore[arg-type]


def score_sheet(sheet: Sheet) -> dict[str, Any]:
    """The output object: every player's score in every deal, the totals (and the winner)."""
    if not isinstance(sheet, Sheet):
        raise ScoringError("sheet", f"{sheet!r} is not a deal sheet")
    players = sheet.players
    if sheet.game == "escopette":
        result = _escopette_result(sheet)
        return {
            "deals": [{p: scores.get(p, 0) for p in players} for scores in result.scores],
            "totals": {p: result.totals[p] for p in players},
            "winner": result.winner,
        }
    scored = deal_scores(sheet.game, players, sheet.target, sheet.deals, sheet.rules)
    rows = [{p: scores.get(p, 0) for p in players} for scores in scored]
    return {"deals": rows, "totals": totals(players, scored)}


def deal_scores(
    kind: str,
    players: Sequence[str],
    target: int | None,
    deals: Sequence[AnyDeal],
    rules: HouseRules = FFT_RULES,
) -> list[dict[str, int]]:
    """Each deal's scores by the pure scoring code (a ScoringError names the bad deal)."""
    if kind == "escopette":
        return list(escopette_game(list(players), target or 0, deals).scores)  # type: ignore[arg-type]
    result = []
    for number, deal in enumerate(deals, start=1):
        try:
            if isinstance(deal, PaperDeal):
                result.append(score_paper_deal(deal))
            else:
                result.append(score_deal(deal, rules))  # type: ignore[arg-type]
        except ScoringError as error:
            raise error.with_deal(number) from None
    return result


def sheet_from_deals(
    players: Sequence[str],
    deals: Iterable[AnyDeal],
    *,
    game: str = "tarot",
    target: int | None = None,
    dealers: Sequence[str | None] = (),
    rules: HouseRules = FFT_RULES,
) -> Sheet:
    """A validated sheet from deal objects whose players are the names in `players`."""
    draft = Sheet(
        game=game,
        players=tuple(players),
        target=target,
        deals=tuple(deals),
        dealers=tuple(dealers),
        rules=rules,
    )
    return parse_sheet(sheet_to_data(draft))


def load_sheet_text(text: str | bytes) -> Sheet:
    """Parse and check a sheet from its JSON text."""
    return parse_sheet(load_json(text))
