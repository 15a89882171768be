"""The house rules as the read side sees them: which rules some evenings were played by, and
what a rescore of an open evening by other rules would change (computed, nothing written).

Scores come from ``scorekeeper.scoring``; this module reads the database and writes nothing.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import BooleanField, Case, Count, Prefetch, QuerySet, Value, When

from scorekeeper.models import Deal, DealScore, Evening, Game, Player, stored_inputs
from scorekeeper.reads.evening_tallies import database_name
from scorekeeper.reads.nights import CLUB, START, Nights, club_evenings
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.rules import FFT_RULES, HouseRules, rules_from_data
from scorekeeper.scoring.tarot import TarotDeal, score_deal
from scorekeeper.server import shared_cache
from scorekeeper.server.prepared import Prepared
from scorekeeper.server.shared_cache import LocalMemo


@dataclass(frozen=True)
class RulesInForce:
    """One set of rules and how many of the evenings were played by it."""

    rules: HouseRules
    evenings: int

    @property
    def is_fft(self) -> bool:
        return self.rules == FFT_RULES


def _rules(data: object) -> HouseRules:
    try:
        return rules_from_data(data)
    except ScoringError:  # never written by the services; read as the FFT rules
        return FFT_RULES


def rules_in_force(evenings: QuerySet[Evening] | Iterable[Evening]) -> list[RulesInForce]:
    """Each set of rules these evenings' French Tarot was played by, the most played first.

    A queryset costs one query (evenings without a tarot game are left out); more than one
    entry means the standings over these evenings mix rules.
    """
    if isinstance(evenings, QuerySet):
        datas = _grouped(evenings)
    else:
        datas = [(evening.rules, 1) for evening in evenings]
    return _counted(datas)


def _grouped(evenings: QuerySet[Evening]) -> list[tuple[object, int]]:
    """The evenings with a tarot game, grouped by their stored rules: a row per set (nearly
    always one), not per evening; one query."""
    return list(_grouped_query(evenings))


def _grouped_query(evenings: QuerySet[Evening], **groups: Any) -> QuerySet[Evening]:
    """The grouping of ``_grouped``, by the rules and by ``groups`` (expressions) too."""
    return (
        evenings.filter(games__kind=Game.Kind.TAROT)
        .order_by()
        .values("rules", **groups)
        .annotate(n=Count("pk", distinct=True))
        .values_list("rules", *groups, "n")
    )


RANGE_SECONDS = 7 * 86400  # the settled evenings' rules in the cache (a new fingerprint, a new key)
_tonight = LocalMemo(512)  # tonight's evening's rules, under its identity and version
EVENING = 2_000_000_019  # the stand-in evening id the one-evening query is compiled with
_one_evening = Prepared(lambda evening: _grouped_query(Evening.objects.filter(pk=evening)), EVENING)
# The club's evenings of one date (a club night of several tables), compiled once.
_one_night = Prepared(
    lambda club, date: _grouped_query(club_evenings(club, date, date)), CLUB, START
)


def range_rules_in_force(
    club_id: int, start: dt.date | None, end: dt.date | None, found: Nights
) -> list[RulesInForce]:
    """``rules_in_force`` of the club's evenings from start to end, ``found`` their
    fingerprint (``nights``): the settled evenings' rules kept in the shared cache under
    theirs, tonight's evening's under its identity and version.

    Any change to an evening's rules bumps its version, so after a deal saved the settled
    evenings are not read again, and tonight's evening is: one small query, compiled once.
    """
    latest = found.latest
    if latest is None:
        return []
    database = database_name()
    settled_key = (database, club_id, start, end, found.settled_key)
    name = shared_cache.name_for("rules.settled", settled_key)
    one = found.tonight_evening()  # its identity and version name tonight's part
    tonight_name = (
        None if one is None else shared_cache.name_for("rules.tonight", (database, *one[:3]))
    )
    settled = shared_cache.peek(name)
    if settled is None:  # both parts in one query
        settled, tonight = _split(club_evenings(club_id, start, end), latest)
        shared_cache.keep(name, settled, RANGE_SECONDS)
        if tonight_name is not None:
            shared_cache.keep(tonight_name, tonight, shared_cache.TONIGHT_SECONDS, memo=_tonight)
        return _counted([*settled, *tonight])
    if one is None:  # several evenings on the latest date: read together, not kept
        return _counted([*settled, *_one_night.tuples(club_id, latest)])
    tonight = shared_cache.get_or_build(
        tonight_name,
        lambda: _one_evening.tuples(one[0]),
        shared_cache.TONIGHT_SECONDS,
        memo=_tonight,
    )
    return _counted([*settled, *tonight])


def _split(
    evenings: QuerySet[Evening], latest: dt.date
) -> tuple[list[tuple[object, int]], list[tuple[object, int]]]:
    """``_grouped`` of the evenings before ``latest`` and of those on it, in one query."""
    tonight = Case(
        When(date__gte=latest, then=Value(True)), default=Value(False), output_field=BooleanField()
    )
    settled: list[tuple[object, int]] = []
    on_latest: list[tuple[object, int]] = []
    for rules, is_tonight, n in _grouped_query(evenings, tonight=tonight):
        (on_latest if is_tonight else settled).append((rules, n))
    return settled, on_latest


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
