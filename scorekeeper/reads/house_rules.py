"""The house rules some evenings were played by, and what a rescore of an open evening by
other rules would change (computed, nothing written)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Prefetch

from scorekeeper.models import Deal, DealScore, Evening, Game, Player, stored_inputs
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.rules import FFT_RULES, HouseRules, rules_from_data
from scorekeeper.scoring.tarot import TarotDeal, score_deal


@dataclass(frozen=True)
class RulesInForce:
    """One set of rules and how many of the evenings were played by it."""

    rules: HouseRules
    evenings: int


def _rules(data: object) -> HouseRules:
    try:
        return rules_from_data(data)
    except ScoringError:  # never written by the services; read as the FFT rules
        return FFT_RULES


def rules_in_force(nights: Iterable[tuple[str, int]]) -> list[RulesInForce]:
    """Each set of rules some nights' French Tarot was played by, most played first, from
    (the rules as stored, in JSON, nights played by them) pairs; more than one means the
    standings mix rules."""
    return _counted((json.loads(stored), played) for stored, played in nights)


def _counted(datas: Iterable[tuple[object, int]]) -> list[RulesInForce]:
    """The (stored rules, evenings) rows added up by rules, the most played first."""
    counts: dict[str, int] = {}
    by_key: dict[str, HouseRules] = {}
    for data, evenings_played in datas:
        rules = _rules(data)
        key = json.dumps(rules.to_data(), sort_keys=True)
        by_key.setdefault(key, rules)
        counts[key] = counts.get(key, 0) + evenings_played
    order = sorted(counts, key=lambda key: (-counts[key], by_key[key] != FFT_RULES, key))
    return [RulesInForce(rules=by_key[key], evenings=counts[key]) for key in order]


@dataclass
class RescoreLine:
    """A player's French Tarot total for the evening, as it is and as it would be."""

    player: Player
    before: int = 0
    after: int = 0

    @property
    def change(self) -> int:
        return self.after - self.before


@dataclass
class RescorePreview:
    """What scoring an evening's tarot deals by ``proposed`` would change; nothing written.

    ``error`` is the first deal these rules cannot score (naming it): then no rescore.
    """

    evening: Evening
    current: HouseRules
    proposed: HouseRules
    lines: list[RescoreLine] = field(default_factory=list)
    deals: int = 0  # the tarot deals scored by the rules (not passed, not paper)
    deals_changed: int = 0
    error: ScoringError | None = None

    @property
    def same_rules(self) -> bool:
        return self.current == self.proposed

    @property
    def changes(self) -> bool:
        return any(line.change for line in self.lines)


def rescore_preview(evening: Evening, proposed: HouseRules) -> RescorePreview:
    """Old and new totals of the evening's French Tarot under ``proposed``: three queries."""
    preview = RescorePreview(evening=evening, current=_rules(evening.rules), proposed=proposed)
    deals = (
        Deal.objects.filter(game__evening=evening, game__kind=Game.Kind.TAROT)
        .order_by("game__number", "number")
        .prefetch_related(
            Prefetch("scores", queryset=DealScore.objects.select_related("player").order_by("pk"))
        )
    )
    lines: dict[int, RescoreLine] = {}
    for deal in deals:
        rows = list(deal.scores.all())
        for row in rows:
            lines.setdefault(row.player_id, RescoreLine(player=row.player))
        after = {row.player_id: row.score for row in rows}
        if not deal.paper and not deal.passed and preview.error is None:
            inputs = stored_inputs(deal, Game.Kind.TAROT)
            if isinstance(inputs, TarotDeal):
                preview.deals += 1
                try:
                    after = {**after, **score_deal(inputs, proposed)}
                except ScoringError as error:
                    preview.error = error.with_deal(deal.number)
        if any(after[row.player_id] != row.score for row in rows):
            preview.deals_changed += 1
        for row in rows:
            lines[row.player_id].before += row.score
            lines[row.player_id].after += after[row.player_id]
    preview.lines = sorted(lines.values(), key=lambda line: (-line.after, line.player.name))
    return preview
