"""Writing a deal sheet back: the Sheet as its JSON object or text, and its players mapped."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from scorekeeper.scoring.errors import ScoringError, to_points
from scorekeeper.scoring.escopette import STAKE_TRUMPS, EscopetteDeal
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.scoring.rules import FFT_RULES, to_rules
from scorekeeper.scoring.sheet_model import DEALERS_VERSION, SHEET_VERSION, Sheet
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal


def _json_points(points: object) -> int | float:
    value = to_points(points)
    return int(value) if value == value.to_integral_value() else float(value)


def _deal_to_data(deal: object, players: Sequence[str]) -> dict[str, Any]:
    if isinstance(deal, EscopetteDeal):
        stakes = deal.stakes
        return {"stakes": {str(trump): stakes[trump] for trump in STAKE_TRUMPS if trump in stakes}}
    if not isinstance(deal, TarotDeal | PassedDeal | PaperDeal):
        raise ScoringError("deal", f"{deal!r} is not a deal")
    data: dict[str, Any] = {}
    if isinstance(deal, PaperDeal):
        data["scores"] = {player: deal.scores[player] for player in deal.seated}
    elif isinstance(deal, PassedDeal):
        data["passed"] = True
    else:
        data["taker"] = deal.taker
        data["contract"] = str(getattr(deal.contract, "value", deal.contract))
        data["bouts"] = deal.bouts
        data["points"] = _json_points(deal.points)
        if deal.partner is not None:
            data["partner"] = deal.partner
        if deal.petit_au_bout is not None:
            data["petit_au_bout"] = deal.petit_au_bout
        if deal.poignees:
            data["poignees"] = list(deal.poignees)
        if deal.chelem is not None:
            data["chelem"] = deal.chelem
        if deal.miseres:
            data["miseres"] = list(deal.miseres)
    seated = deal.seated if isinstance(deal.seated, tuple | list) else ()
    away = [player for player in players if player not in seated]
    if away:
        data["sitting_out"] = away
    return data


def sheet_to_data(sheet: Sheet) -> dict[str, Any]:
    """The sheet in its JSON form: parse_sheet(sheet_to_data(s)) == s.

    Version 3 with its "rules" (the non-FFT ones) when the rules are not the FFT's; otherwise
    as before: version 2 when it names dealers, no version when it does not.
    """
    if not isinstance(sheet, Sheet):
        raise ScoringError("sheet", f"{sheet!r} is not a deal sheet")
    data: dict[str, Any] = {"game": sheet.game, "players": list(sheet.players)}
    rules = to_rules(sheet.rules)
    if rules != FFT_RULES:
        data = {"version": SHEET_VERSION, **data, "rules": rules.to_data()}
    elif sheet.dealers:
        data = {"version": DEALERS_VERSION, **data}
    if sheet.game == "escopette":
        data["target"] = sheet.target
    deals = []
    for number, deal in enumerate(sheet.deals, start=1):
        try:
            deal_data = _deal_to_data(deal, sheet.players)
            dealer = sheet.dealers[number - 1] if sheet.dealers else None
            if dealer is not None:
                deal_data["dealer"] = dealer
            deals.append(deal_data)
        except ScoringError as error:
            raise error.with_deal(number) from None
    data["deals"] = deals
    return data


def map_players(deal: Any, key: Callable[[Any], Any]) -> Any:
    """The same deal with every player replaced by ``key(player)`` (names to ids, ids to names)."""
    if isinstance(deal, EscopetteDeal):
        return EscopetteDeal(stakes={stake: key(winner) for stake, winner in deal.stakes.items()})
    seated = tuple(key(player) for player in deal.seated)
    if isinstance(deal, PaperDeal):
        return PaperDeal(seated=seated, scores={key(p): s for p, s in deal.scores.items()})
    if isinstance(deal, PassedDeal):
        return PassedDeal(seated=seated)
    partner = key(deal.partner) if deal.partner is not None else None
    miseres = tuple(key(player) for player in deal.miseres)
    return replace(deal, seated=seated, taker=key(deal.taker), partner=partner, miseres=miseres)
