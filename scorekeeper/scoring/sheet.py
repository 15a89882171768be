"""The deal sheet: the project's JSON exchange format for a whole game."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.scoring.errors import ScoringError, to_points
from scorekeeper.scoring.escopette import (
    ESCOPETTE_PLAYERS,
    STAKE_TRUMPS,
    EscopetteDeal,
    check_target,
    escopette_game,
    escopette_players,
    not_stake_trump,
    stakes_missing,
)
from scorekeeper.scoring.paper import PaperDeal, score_paper_deal
from scorekeeper.scoring.tarot import (
    SEATED_MAX,
    SEATED_MIN,
    PassedDeal,
    TarotDeal,
    running_totals,
    score_deal,
    to_contract,
    validate_deal,
)

GAMES = ("tarot", "escopette")
PLAYERS_MIN, PLAYERS_MAX = 3, 6
SHEET_VERSION = 2  # 2: optional "version" and a "dealer" per deal; 1 (no "version"): neither
SHEET_KEYS = ("version", "game", "players", "target", "deals")
TAROT_KEYS = (
    "taker",
    "contract",
    "bouts",
    "points",
    "partner",
    "petit_au_bout",
    "poignees",
    "chelem",
    "sitting_out",
    "dealer",
)
PASSED_KEYS = ("passed", "sitting_out", "dealer")
PAPER_KEYS = ("scores", "sitting_out", "dealer")
ESCOPETTE_KEYS = ("stakes", "dealer")

AnyDeal = TarotDeal[str] | PassedDeal[str] | EscopetteDeal[str] | PaperDeal[str]


@dataclass(frozen=True)
class Sheet:
    """A whole game: its players in seat order and every deal, validated."""

    game: str
    players: tuple[str, ...]
    target: int | None
    deals: tuple[AnyDeal, ...]
    dealers: tuple[str | None, ...] = ()  # one per deal when the sheet names them


def _show(value: object) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _not_names(field: str, value: object) -> ScoringError:
    return ScoringError.coded(
        field, "not_names", "%(value)s is not a list of names", value=_show(value)
    )


def _not_object(field: str, value: object) -> ScoringError:
    return ScoringError.coded(
        field, "not_object", "%(value)s is not a JSON object", value=_show(value)
    )


def _twice(field: str, name: str) -> ScoringError:
    return ScoringError.coded(field, "listed_twice", "%(name)s is listed twice", name=name)


def not_a_player(field: str, name: str) -> ScoringError:
    return ScoringError.coded(
        field, "not_a_player", "%(name)s is not one of the players", name=name
    )


def json_error(error: json.JSONDecodeError) -> ScoringError:
    """Text that is not JSON, said with its line and column (no Python wording)."""
    return ScoringError.coded(
        "sheet",
        "not_json",
        "not valid JSON: line %(line)s, column %(column)s",
        line=error.lineno,
        column=error.colno,
    )


def _check_keys(data: dict[str, Any], allowed: Sequence[str], where: str) -> None:
    for key in data:
        if key not in allowed:
            raise ScoringError.coded(
                str(key),
                "unknown_key",
                "not a key of %(where)s (expected %(keys)s)",
                where=where,
                keys=", ".join(allowed),
            )


def _required(data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise ScoringError.coded(key, "missing", "missing")
    return data[key]


def _whole(value: object, field: str) -> int:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError.coded(
            field, "not_whole", "%(value)s is not a whole number", value=_show(value)
        )
    return value


def _text(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise ScoringError.coded(field, "not_text", "%(value)s is not a string", value=_show(value))
    return value


def _players(value: object, game: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _not_names("players", value)
    players: list[str] = []
    for name in value:
        if not isinstance(name, str) or not name.strip():
            raise ScoringError.coded(
                "players", "not_name", "%(value)s is not a player's name", value=_show(name)
            )
        if name in players:
            raise _twice("players", name)
        players.append(name)
    if game == "escopette":
        if len(players) != ESCOPETTE_PLAYERS:
            raise escopette_players(len(players))
    elif not PLAYERS_MIN <= len(players) <= PLAYERS_MAX:
        raise ScoringError.coded(
            "players",
            "tarot_players",
            "%(count)s players: a tarot sheet needs 3 to 6",
            count=len(players),
        )
    return tuple(players)


def _player(value: object, field: str, players: tuple[str, ...], away: tuple[str, ...]) -> str:
    name = _text(value, field)
    if name not in players:
        raise not_a_player(field, name)
    if name in away:
        raise ScoringError.coded(
            field, "sitting_out", "%(name)s is sitting out this deal", name=name
        )
    return name


def _seating(
    data: dict[str, Any], players: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(seated, sitting out) for a tarot deal."""
    value = data.get("sitting_out")
    away: list[str] = []
    if value is not None:
        if not isinstance(value, list):
            raise _not_names("sitting_out", value)
        for name in value:
            name = _player(name, "sitting_out", players, ())
            if name in away:
                raise _twice("sitting_out", name)
            away.append(name)
    seated = tuple(player for player in players if player not in away)
    if len(seated) < SEATED_MIN:
        raise ScoringError.coded(
            "sitting_out",
            "too_few_seated",
            "only %(count)s players left seated: a deal needs 3 to 5",
            count=len(seated),
        )
    if len(seated) > SEATED_MAX:
        raise ScoringError.coded(
            "sitting_out",
            "too_many_seated",
            "%(count)s players seated: at most 5 play a deal, say who sits out",
            count=len(seated),
        )
    return seated, tuple(away)


def _optional_text(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return None if value is None else _text(value, key)


def _paper_deal(data: dict[str, Any], players: tuple[str, ...]) -> PaperDeal[str]:
    _check_keys(data, PAPER_KEYS, "a paper deal")
    seated, _away = _seating(data, players)
    value = data["scores"]
    if not isinstance(value, dict):
        raise ScoringError.coded(
            "scores",
            "not_scores",
            "%(value)s is not an object of player: score",
            value=_show(value),
        )
    for name in value:
        if name not in players:
            raise not_a_player("scores", name)
    deal: PaperDeal[str] = PaperDeal(seated=seated, scores=dict(value))
    return PaperDeal(seated=seated, scores=score_paper_deal(deal))


def _tarot_deal(
    data: dict[str, Any], players: tuple[str, ...]
) -> TarotDeal[str] | PassedDeal[str] | PaperDeal[str]:
    if "scores" in data:
        return _paper_deal(data, players)
    if "passed" in data:
        if data["passed"] is not True:
            raise ScoringError.coded(
                "passed", "passed_true", "must be true (leave it out for a deal that was played)"
            )
        _check_keys(data, PASSED_KEYS, "a passed deal")
        seated, _ = _seating(data, players)
        return PassedDeal(seated=seated)
    _check_keys(data, TAROT_KEYS, "a tarot deal")
    seated, away = _seating(data, players)
    taker = _player(_required(data, "taker"), "taker", players, away)
    contract = _text(_required(data, "contract"), "contract")
    bouts = _whole(_required(data, "bouts"), "bouts")
    points = _required(data, "points")
    if isinstance(points, bool) or not isinstance(points, int | float):
        raise ScoringError.coded(
            "points", "not_a_number", "%(value)s is not a number", value=_show(points)
        )
    partner = data.get("partner")
    if partner is not None:
        partner = _player(partner, "partner", players, away)
    poignees = data.get("poignees")
    if poignees is None:
        poignees = []
    if not isinstance(poignees, list):
        raise ScoringError.coded(
            "poignees", "not_list", "%(value)s is not a list", value=_show(poignees)
        )
    for poignee in poignees:
        _text(poignee, "poignees")
    deal: TarotDeal[str] = TarotDeal(
        seated=seated,
        taker=taker,
        contract=contract,
        bouts=bouts,
        points=to_points(points),
        partner=partner,
        petit_au_bout=_optional_text(data, "petit_au_bout"),
        poignees=tuple(poignees),
        chelem=_optional_text(data, "chelem"),
    )
    validate_deal(deal)
    return replace(deal, contract=to_contract(deal.contract))


def _escopette_deal(data: dict[str, Any], players: tuple[str, ...]) -> EscopetteDeal[str]:
    _check_keys(data, ESCOPETTE_KEYS, "an escopette deal")
    value = _required(data, "stakes")
    if not isinstance(value, dict):
        raise ScoringError.coded(
            "stakes",
            "not_stakes",
            "%(value)s is not an object of trump: player",
            value=_show(value),
        )
    names = {str(trump): trump for trump in STAKE_TRUMPS}
    stakes: dict[int, str] = {}
    for key, winner in value.items():
        if key not in names:
            raise not_stake_trump(_show(key))
        if not isinstance(winner, str) or winner not in players:
            raise ScoringError.coded(
                "stakes",
                "stake_not_player",
                "trump %(trump)s went to %(name)s, who is not one of the players",
                trump=key,
                name=_show(winner),
            )
        stakes[names[key]] = winner
    missing = [str(trump) for trump in STAKE_TRUMPS if trump not in stakes]
    if missing:
        raise stakes_missing(", ".join(missing))
    return EscopetteDeal(stakes={trump: stakes[trump] for trump in STAKE_TRUMPS})


def parse_sheet(data: object) -> Sheet:
    """Check a sheet (the JSON object, already decoded) and build it; every deal is validated."""
    if not isinstance(data, dict):
        raise ScoringError.coded("sheet", "sheet_not_object", "a deal sheet is a JSON object")
    _check_keys(data, SHEET_KEYS, "the sheet")
    if "version" in data and data["version"] not in (1, SHEET_VERSION):
        raise ScoringError.coded(
            "version",
            "version",
            "%(value)s is not a version this app reads (1 to %(latest)s)",
            value=_show(data["version"]),
            latest=SHEET_VERSION,
        )
    game = data.get("game", "tarot")
    if game not in GAMES or not isinstance(game, str):
        raise ScoringError.coded(
            "game",
            "not_game",
            "%(value)s is not a game (%(options)s)",
            value=_show(game),
            options=", ".join(GAMES),
        )
    players = _players(_required(data, "players"), game)
    target: int | None = None
    if game == "escopette":
        target = check_target(_whole(_required(data, "target"), "target"))
    elif "target" in data:
        raise ScoringError.coded("target", "target_tarot", "only l'escopette has a target")
    raw_deals = _required(data, "deals")
    if not isinstance(raw_deals, list):
        raise ScoringError.coded(
            "deals", "not_deal_list", "%(value)s is not a list of deals", value=_show(raw_deals)
        )
    deals: list[AnyDeal] = []
    dealers: list[str | None] = []
    for number, raw in enumerate(raw_deals, start=1):
        try:
            if not isinstance(raw, dict):
                raise _not_object("deal", raw)
            if game == "escopette":
                deals.append(_escopette_deal(raw, players))
            else:
                deals.append(_tarot_deal(raw, players))
            dealer = raw.get("dealer")
            dealers.append(None if dealer is None else _player(dealer, "dealer", players, ()))
        except ScoringError as error:
            raise error.with_deal(number) from None
    named = any(dealer is not None for dealer in dealers)
    sheet = Sheet(
        game=game,
        players=players,
        target=target,
        deals=tuple(deals),
        dealers=tuple(dealers) if named else (),
    )
    if game == "escopette":
        _escopette_result(sheet)  # a deal after the end of the game is an error
    return sheet


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
    deal_scores: list[dict[str, int]] = []
    for number, deal in enumerate(sheet.deals, start=1):
        try:
            if isinstance(deal, PaperDeal):
                scores = score_paper_deal(deal)
            elif not isinstance(deal, TarotDeal | PassedDeal):
                raise ScoringError("deal", f"{deal!r} is not a tarot deal")
            else:
                scores = score_deal(deal)
            for player in scores:
                if player not in players:
                    raise ScoringError("seated", f"{player} is not one of the players")
        except ScoringError as error:
            raise error.with_deal(number) from None
        deal_scores.append({p: scores.get(p, 0) for p in players})
    running = running_totals(players, deal_scores)
    return {
        "deals": deal_scores,
        "totals": running[-1] if running else {p: 0 for p in players},
    }


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
    seated = deal.seated if isinstance(deal.seated, tuple | list) else ()
    away = [player for player in players if player not in seated]
    if away:
        data["sitting_out"] = away
    return data


def sheet_to_data(sheet: Sheet) -> dict[str, Any]:
    """The sheet in its JSON form: parse_sheet(sheet_to_data(s)) == s."""
    if not isinstance(sheet, Sheet):
        raise ScoringError("sheet", f"{sheet!r} is not a deal sheet")
    data: dict[str, Any] = {"game": sheet.game, "players": list(sheet.players)}
    if sheet.dealers:
        data = {"version": SHEET_VERSION, **data}
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


def sheet_from_deals(
    players: Sequence[str],
    deals: Iterable[AnyDeal],
    *,
    game: str = "tarot",
    target: int | None = None,
    dealers: Sequence[str | None] = (),
) -> Sheet:
    """A validated sheet from deal objects whose players are the names in `players`."""
    draft = Sheet(
        game=game,
        players=tuple(players),
        target=target,
        deals=tuple(deals),
        dealers=tuple(dealers),
    )
    return parse_sheet(sheet_to_data(draft))


def dump_sheet(sheet: Sheet) -> str:
    """The sheet as JSON text (UTF-8 names kept as they are)."""
    return json.dumps(sheet_to_data(sheet), ensure_ascii=False, indent=2)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ScoringError.coded(
                "sheet",
                "json_key_twice",
                "not valid JSON: the key %(key)s appears twice",
                key=_show(key),
            )
        data[key] = value
    return data


def _no_constants(name: str) -> Any:
    raise ScoringError.coded(
        "sheet", "json_constant", "not valid JSON: %(value)s is not a number", value=name
    )


def load_sheet_text(text: str | bytes) -> Sheet:
    """Parse and check a sheet from its JSON text."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ScoringError.coded("sheet", "not_utf8", "not valid UTF-8 text") from None
    if not isinstance(text, str):
        raise ScoringError("sheet", f"{text!r} is not text")
    text = text.removeprefix("\ufeff")
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except ScoringError:
        raise
    except RecursionError:
        raise ScoringError.coded(
            "sheet", "json_deep", "not valid JSON: nested too deeply"
        ) from None
    except json.JSONDecodeError as error:
        raise json_error(error) from None
    except ValueError as error:
        raise ScoringError("sheet", f"not valid JSON: {error}") from None
    return parse_sheet(data)


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
    return replace(deal, seated=seated, taker=key(deal.taker), partner=partner)
