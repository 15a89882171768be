"""Reading each deal of a deal sheet: the players, who sits out, and every kind of deal."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scorekeeper.scoring.deal_checks import SEATED_MAX, SEATED_MIN
from scorekeeper.scoring.errors import ScoringError, to_points
from scorekeeper.scoring.escopette import (
    ESCOPETTE_PLAYERS,
    STAKE_TRUMPS,
    EscopetteDeal,
    escopette_players,
    not_stake_trump,
    stakes_missing,
)
from scorekeeper.scoring.paper import PaperDeal, score_paper_deal
from scorekeeper.scoring.rules import FFT_RULES, HouseRules
from scorekeeper.scoring.sheet_json import (
    as_text,
    as_whole,
    check_keys,
    not_a_player,
    not_names,
    optional_text,
    required,
    show,
    twice,
)
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal, to_contract, validate_deal

PLAYERS_MIN, PLAYERS_MAX = 3, 6
TAROT_KEYS = (
    "taker",
    "contract",
    "bouts",
    "points",
    "partner",
    "petit_au_bout",
    "poignees",
    "chelem",
    "miseres",
    "sitting_out",
    "dealer",
)
PASSED_KEYS = ("passed", "sitting_out", "dealer")
PAPER_KEYS = ("scores", "sitting_out", "dealer")
ESCOPETTE_KEYS = ("stakes", "dealer")


def read_players(value: object, game: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise not_names("players", value)
    players: list[str] = []
    for name in value:
        if not isinstance(name, str) or not name.strip():
            raise ScoringError.coded(
                "players", "not_name", "%(value)s is not a player's name", value=show(name)
            )
        if name in players:
            raise twice("players", name)
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


def read_player(value: object, field: str, players: tuple[str, ...], away: tuple[str, ...]) -> str:
    name = as_text(value, field)
    if name not in players:
        raise not_a_player(field, name)
    if name in away:
        raise ScoringError.coded(
            field, "sitting_out", "%(name)s is sitting out this deal", name=name
        )
    return name


def seating(
    data: dict[str, Any], players: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(seated, sitting out) for a tarot deal."""
    away = _names(data.get("sitting_out"), "sitting_out", players, ())
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
    return seated, away


def paper_deal(data: dict[str, Any], players: tuple[str, ...]) -> PaperDeal[str]:
    check_keys(data, PAPER_KEYS, "a paper deal")
    seated, _away = seating(data, players)
    value = data["scores"]
    if not isinstance(value, dict):
        raise ScoringError.coded(
            "scores", "not_scores", "%(value)s is not an object of player: score", value=show(value)
        )
    for name in value:
        if name not in players:
            raise not_a_player("scores", name)
    deal: PaperDeal[str] = PaperDeal(seated=seated, scores=dict(value))
    return PaperDeal(seated=seated, scores=score_paper_deal(deal))


def tarot_deal(
    data: dict[str, Any], players: tuple[str, ...], rules: HouseRules = FFT_RULES
) -> TarotDeal[str] | PassedDeal[str] | PaperDeal[str]:
    """A tarot deal, passed deal or paper deal, checked (a misère only if the rules score it)."""
    if "scores" in data:
        return paper_deal(data, players)
    if "passed" in data:
        if data["passed"] is not True:
            raise ScoringError.coded(
                "passed", "passed_true", "must be true (leave it out for a deal that was played)"
            )
        check_keys(data, PASSED_KEYS, "a passed deal")
        seated, _ = seating(data, players)
        return PassedDeal(seated=seated)
    check_keys(data, TAROT_KEYS, "a tarot deal")
    seated, away = seating(data, players)
    taker = read_player(required(data, "taker"), "taker", players, away)
    contract = as_text(required(data, "contract"), "contract")
    bouts = as_whole(required(data, "bouts"), "bouts")
    points = required(data, "points")
    if isinstance(points, bool) or not isinstance(points, int | float):
        raise ScoringError.coded(
            "points", "not_a_number", "%(value)s is not a number", value=show(points)
        )
    partner = data.get("partner")
    if partner is not None:
        partner = read_player(partner, "partner", players, away)
    poignees = data.get("poignees")
    if poignees is None:
        poignees = []
    if not isinstance(poignees, list):
        raise ScoringError.coded(
            "poignees", "not_list", "%(value)s is not a list", value=show(poignees)
        )
    for poignee in poignees:
        as_text(poignee, "poignees")
    deal: TarotDeal[str] = TarotDeal(
        seated=seated,
        taker=taker,
        contract=contract,
        bouts=bouts,
        points=to_points(points),
        partner=partner,
        petit_au_bout=optional_text(data, "petit_au_bout"),
        poignees=tuple(poignees),
        chelem=optional_text(data, "chelem"),
        miseres=_names(data.get("miseres"), "miseres", players, away),
    )
    validate_deal(deal, rules)
    return replace(deal, contract=to_contract(deal.contract))


def _names(
    value: object, field: str, players: tuple[str, ...], away: tuple[str, ...]
) -> tuple[str, ...]:
    """A list of players, each once (and not sitting out): who sits out, who announced a
    misère."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise not_names(field, value)
    names: list[str] = []
    for name in value:
        name = read_player(name, field, players, away)
        if name in names:
            raise twice(field, name)
        names.append(name)
    return tuple(names)


def escopette_deal(data: dict[str, Any], players: tuple[str, ...]) -> EscopetteDeal[str]:
    check_keys(data, ESCOPETTE_KEYS, "an escopette deal")
    value = required(data, "stakes")
    if not isinstance(value, dict):
        raise ScoringError.coded(
            "stakes", "not_stakes", "%(value)s is not an object of trump: player", value=show(value)
        )
    names = {str(trump): trump for trump in STAKE_TRUMPS}
    stakes: dict[int, str] = {}
    for key, winner in value.items():
        if key not in names:
            raise not_stake_trump(show(key))
        if not isinstance(winner, str) or winner not in players:
            raise ScoringError.coded(
                "stakes",
                "stake_not_player",
                "trump %(trump)s went to %(name)s, who is not one of the players",
                trump=key,
                name=show(winner),
            )
        stakes[names[key]] = winner
    missing = [str(trump) for trump in STAKE_TRUMPS if trump not in stakes]
    if missing:
        raise stakes_missing(", ".join(missing))
    return EscopetteDeal(stakes={trump: stakes[trump] for trump in STAKE_TRUMPS})
