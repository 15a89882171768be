"""What an import will store, planned by the pure rules before anything is written:
``plan_entries`` checks and scores each ``SheetEntry`` into a ``GamePlan`` with a digest of
the game (the same game imported twice is noticed); ``evening_keys`` groups them in evenings.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.inputs import name_key
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.scoring.rules import FFT_RULES, HouseRules
from scorekeeper.scoring.sheet import AnyDeal, Sheet, deal_scores, sheet_to_data
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal

TAROT = "tarot"  # the game kind, as stored (``Game.Kind``)
FIVE_WITH_A_CALLED_KING = "five"  # ``Game.FiveMode.FIVE``


@dataclass(frozen=True)
class SheetEntry:
    """One game of a file to import: the sheet, and the evening it belongs to when known."""

    sheet: Sheet
    date: dt.date | None = None
    place: str = ""
    evening: int | None = None  # entries sharing this key are games of one evening


@dataclass
class DealPlan:
    """One deal ready to store: inputs and dealer by name, each present player's score."""

    inputs: AnyDeal
    dealer: str
    scores: dict[str, int]  # the players who played the deal
    present: tuple[str, ...]  # everyone at the table (a row each, 0 when sitting out)
    paper: bool = False
    history: list[Any] = field(default_factory=list)


@dataclass
class GamePlan:
    """A game ready to store: names as in the file, seats in order."""

    kind: str
    target: int | None
    five_mode: str
    first_dealer: str
    seats: list[tuple[str, bool]]  # (name, still at the table)
    deals: list[DealPlan]
    digest: str = ""
    rules: HouseRules = FFT_RULES  # the house rules its tarot deals were scored by


def dealer_rotation(
    players: Sequence[str], deals: Sequence[AnyDeal], given: Sequence[str | None] = ()
) -> list[str]:
    """Who dealt each deal: as given, else the deal goes round from the first player.

    As at the table: a lone player sitting out is the dealer; otherwise the next player in
    seat order after the last dealer.
    """
    dealers: list[str] = []
    last: str | None = None
    for number, deal in enumerate(deals):
        dealer = given[number] if number < len(given) else None
        if dealer is None and isinstance(deal, TarotDeal | PassedDeal):
            away = [name for name in players if name not in deal.seated]
            if len(away) == 1:
                dealer = away[0]
        if dealer is None:
            dealer = (
                players[0] if last is None else players[(players.index(last) + 1) % len(players)]
            )
        dealers.append(dealer)
        last = dealer
    return dealers


def content_digest(sheet: Sheet) -> str:
    """A digest of what a game is (not who dealt): the same game imported twice shares it."""
    bare = Sheet(game=sheet.game, players=sheet.players, target=sheet.target, deals=sheet.deals)
    data = sheet_to_data(bare)
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for name in sheet.players:  # the same names whatever their case or Unicode form
        text = text.replace(json.dumps(name, ensure_ascii=False), json.dumps(name_key(name)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def dated_digest(digest: str, date: dt.date) -> str:
    """The digest of a game on a date: the same deals on another evening are another game."""
    return hashlib.sha256(f"{date.isoformat()}:{digest}".encode()).hexdigest()


def plan_sheet(sheet: Sheet) -> GamePlan:
    """A parsed deal sheet as a game to store: every seat present, dealers filled in."""
    scores = deal_scores(sheet.game, sheet.players, sheet.target, sheet.deals, sheet.rules)
    dealers = dealer_rotation(sheet.players, sheet.deals, sheet.dealers)
    return GamePlan(
        rules=sheet.rules,
        kind=sheet.game,
        target=sheet.target,
        five_mode=FIVE_WITH_A_CALLED_KING,
        first_dealer=dealers[0] if dealers else sheet.players[0],
        seats=[(name, True) for name in sheet.players],
        deals=[
            DealPlan(
                inputs=deal,
                dealer=dealer,
                scores=deal_score,
                present=sheet.players,
                paper=isinstance(deal, PaperDeal),
            )
            for deal, dealer, deal_score in zip(sheet.deals, dealers, scores, strict=True)
        ],
        digest=content_digest(sheet),
    )


def in_evening(error: ScoringError, number: int, count: int) -> ScoringError:
    """The error marked with the evening of the file it is in (when the file has several)."""
    if count > 1:
        error.evening_number = number  # type: ignore[attr-defined]
    return error


def plan_entries(entries: Sequence[SheetEntry]) -> list[GamePlan]:
    """Every entry checked and scored by the pure code (a ScoringError names the evening)."""
    plans = []
    for number, entry in enumerate(entries, start=1):
        try:
            plans.append(plan_sheet(entry.sheet))
        except ScoringError as error:
            raise in_evening(error, number, len(entries)) from None
    return plans


def evening_key(entry: SheetEntry) -> tuple[Any, ...] | None:
    """Entries with the same key are games of one evening (None: an evening of its own)."""
    return (entry.date, entry.place, entry.evening) if entry.evening is not None else None


EveningKey = tuple[Hashable, ...] | None


def evening_keys(
    entries: Sequence[SheetEntry], plans: Sequence[GamePlan]
) -> tuple[list[EveningKey], dict[EveningKey, HouseRules]]:
    """Each entry's evening key (None: an evening of its own) and each key's house rules. An
    evening's tarot games share its first tarot game's rules; a game by other rules goes to an
    evening of its own, the same day.
    """
    rules: dict[EveningKey, HouseRules] = {}
    for entry, plan in zip(entries, plans, strict=True):
        key = evening_key(entry)
        if key is not None and plan.kind == TAROT:
            rules.setdefault(key, plan.rules)
    keys: list[EveningKey] = []
    for entry, plan in zip(entries, plans, strict=True):
        key = evening_key(entry)
        if key is not None and plan.kind == TAROT and rules[key] != plan.rules:
            key = (*key, repr(plan.rules))
            rules.setdefault(key, plan.rules)
        keys.append(key)
    return keys, rules


def rules_for(key: EveningKey, plan: GamePlan, rules: dict[EveningKey, HouseRules]) -> HouseRules:
    """The house rules of the evening a game creates."""
    if key is not None and key in rules:
        return rules[key]
    return plan.rules if plan.kind == TAROT else FFT_RULES
