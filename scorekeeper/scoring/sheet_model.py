"""The deal sheet as a value: a whole game, its deals and the house rules it is scored by."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.scoring.escopette import EscopetteDeal
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.scoring.rules import FFT_RULES, HouseRules
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal

GAMES = ("tarot", "escopette")
#: The latest version read. 3: optional "rules" and a deal's "miseres"; 2: optional
#: "version" and a "dealer" per deal; 1 (no "version"): none of them.
SHEET_VERSION = 3
DEALERS_VERSION = 2  # what a sheet with dealers but FFT rules is written as
SHEET_KEYS = ("version", "game", "players", "target", "rules", "deals")

AnyDeal = TarotDeal[str] | PassedDeal[str] | EscopetteDeal[str] | PaperDeal[str]


@dataclass(frozen=True)
class Sheet:
    """A whole game: its players in seat order and every deal, validated."""

    game: str
    players: tuple[str, ...]
    target: int | None
    deals: tuple[AnyDeal, ...]
    dealers: tuple[str | None, ...] = ()  # one per deal when the sheet names them
    rules: HouseRules = FFT_RULES  # how its tarot deals are scored
