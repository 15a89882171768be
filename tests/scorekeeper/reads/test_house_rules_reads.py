"""The read side of the house rules: which rules evenings were played by, and the rescore's
preview (old and new totals, nothing written)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper import services
from scorekeeper.models import DealScore, Evening
from scorekeeper.reads.house_rules import rescore_preview, rules_in_force
from scorekeeper.scoring.rules import FFT_RULES, HouseRules
from scorekeeper.scoring.tarot import TarotDeal, score_deal, totals
from tests.factories import make_club, start_evening

pytestmark = pytest.mark.django_db

HOUSE = HouseRules(multipliers="classic", misere=20)


def _deal(players, **fields) -> TarotDeal[int]:
    ids = tuple(p.pk for p in players)
    base = {"taker": ids[1], "contract": "garde", "bouts": 1, "points": Decimal(60)}
    return TarotDeal(seated=ids, **(base | fields))


def test_rules_in_force_counts_the_nights_by_their_rules_most_played_first() -> None:
    house = json.dumps(HOUSE.to_data())
    found = rules_in_force([(house, 1), ("{}", 2)])
    assert [(entry.rules, entry.evenings) for entry in found] == [(FFT_RULES, 2), (HOUSE, 1)]


def test_one_set_of_rules_stored_in_two_spellings_gives_one_entry() -> None:
    data = HOUSE.to_data()
    spellings = [json.dumps(data), json.dumps(dict(reversed(data.items())))]
    assert spellings[0] != spellings[1]
    found = rules_in_force([(spelling, 1) for spelling in spellings])
    assert [(entry.rules, entry.evenings) for entry in found] == [(HOUSE, 2)]


def test_the_preview_gives_old_and_new_totals_and_writes_nothing() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    deals = [_deal(players), _deal(players, contract="garde_contre", points=Decimal(40))]
    for inputs in deals:
        services.deal_record(game=game, inputs=inputs)
    stored = list(DealScore.objects.values_list("pk", "score"))
    ids = [p.pk for p in players]
    with CaptureQueriesContext(connection) as queries:
        preview = rescore_preview(evening, HOUSE)
    assert len(queries) <= 3
    old = totals(ids, (score_deal(d) for d in deals))
    new = totals(ids, (score_deal(d, HOUSE) for d in deals))
    assert {line.player.pk: (line.before, line.after) for line in preview.lines} == {
        pk: (old[pk], new[pk]) for pk in ids
    }
    assert preview.deals == 2
    assert preview.deals_changed == 1  # a garde counts 2 under both; a garde contre 6 or 4
    assert preview.changes and not preview.same_rules
    assert list(DealScore.objects.values_list("pk", "score")) == stored
    assert Evening.objects.get(pk=evening.pk).rules == {}


def test_the_preview_names_a_deal_the_new_rules_cannot_score() -> None:
    club, players = make_club()
    services.club_rules_set(club=club, rules=HOUSE)
    evening, game = start_evening(club, players)
    services.deal_record(game=game, inputs=_deal(players, miseres=(players[0].pk,)))
    preview = rescore_preview(evening, FFT_RULES)
    assert preview.error is not None
    assert preview.error.deal == 1


def _evening_on(club, players, date: dt.date) -> Evening:
    owner = club.memberships.get(role="owner").user
    return services.evening_start(
        club=club, players=players, first_dealer=players[0], created_by=owner, date=date
    )
