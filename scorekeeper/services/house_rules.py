"""House rules: a club's rules for its new evenings, and an open evening rescored by them
(an evening keeps the rules it started with, so a club's change never moves a past score)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scorekeeper.models import Club, Deal, DealScore, Evening, Game, stored_inputs
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.rules import HouseRules, to_rules
from scorekeeper.scoring.tarot import TarotDeal, score_deal
from scorekeeper.services.common import _check_open, evening_touch
from scorekeeper.services.deal_totals import game_totals_keep


@transaction.atomic
def club_rules_set(*, club: Club, rules: HouseRules) -> Club:
    """The rules the club's next evenings start with; evenings started before keep theirs."""
    club.rules = to_rules(rules).to_data()
    club.save(update_fields=["rules"])
    return club


def _rescored_rows(evening: Evening, rules: HouseRules) -> list[DealScore]:
    """The score rows that change when the evening's tarot deals are scored by ``rules``.

    A deal these rules cannot score (a misère, once misères are off) raises its
    ScoringError, naming the deal; nothing is written then.
    """
    deals = (
        Deal.objects.filter(
            game__evening=evening, game__kind=Game.Kind.TAROT, paper=False, passed=False
        )
        .prefetch_related("scores")
        .order_by("game__number", "number")
    )
    changed: list[DealScore] = []
    for deal in deals:
        rows = deal.scores.all()
        inputs = stored_inputs(deal, Game.Kind.TAROT)
        if not isinstance(inputs, TarotDeal):
            continue
        try:
            scores = score_deal(inputs, rules)
        except ScoringError as error:
            raise error.with_deal(deal.number) from None
        for row in rows:
            if row.seated and scores.get(row.player_id, 0) != row.score:
                row.score = scores.get(row.player_id, 0)
                changed.append(row)
    return changed


@transaction.atomic
def evening_rescore(*, evening: Evening, rules: HouseRules) -> Evening:
    """Score every tarot deal of an open evening again by ``rules``, which become its rules.

    A closed evening is refused (ServiceError); a deal the rules cannot score, too
    (ScoringError naming the deal). Paper deals keep their scores.
    """
    rules = to_rules(rules)
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    _check_open(evening)
    # A deal saved meanwhile waits for this (the evening's lock first, as every save takes
    # it): it is then scored by the new rules. Then the games, in id order.
    games = list(
        Game.objects.select_for_update()
        .filter(evening=evening)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    changed = _rescored_rows(evening, rules)
    DealScore.objects.bulk_update(changed, ["score"], batch_size=500)
    if changed:
        for game in games:
            game_totals_keep(game)
    # The phones watching the evening redraw the sheet from the first deal that moved.
    Deal.objects.filter(pk__in={row.deal_id for row in changed}).update(updated_at=timezone.now())
    evening.rules = rules.to_data()
    evening.save(update_fields=["rules"])
    evening_touch(evening)
    evening.refresh_from_db(fields=["version"])
    return evening
