"""The club's house rules at the table: evenings keep theirs, deals are scored by them, and
the owner's rescore of an open evening."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Deal, DealScore, Evening
from scorekeeper.reads.sheet_changes import MARGIN, changed_from
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.rules import FFT_RULES, HouseRules
from scorekeeper.scoring.tarot import TarotDeal, score_deal
from tests.factories import make_club, start_evening

pytestmark = pytest.mark.django_db

HOUSE = HouseRules(multipliers="classic", poignees="20-40-60", misere=10)


def _deal(players, **fields) -> TarotDeal[int]:
    ids = tuple(p.pk for p in players)
    base = {"taker": ids[0], "contract": "garde_contre", "bouts": 2, "points": Decimal(51)}
    return TarotDeal(seated=ids, **(base | fields))


def _totals(evening: Evening) -> dict[str, int]:
    totals: dict[str, int] = {}
    for row in DealScore.objects.filter(deal__game__evening=evening).select_related("player"):
        totals[row.player.name] = totals.get(row.player.name, 0) + row.score
    return totals


def test_an_evening_starts_with_the_clubs_rules() -> None:
    club, players = make_club()
    services.club_rules_set(club=club, rules=HOUSE)
    evening, _game = start_evening(club, players)
    assert evening.rules == {"multipliers": "classic", "poignees": "20-40-60", "misere": 10}
    assert evening.house_rules == HOUSE


def test_the_fft_rules_are_stored_as_an_empty_object() -> None:
    club, _players = make_club()
    services.club_rules_set(club=club, rules=HOUSE)
    services.club_rules_set(club=club, rules=FFT_RULES)
    club.refresh_from_db()
    assert club.rules == {}
    assert club.house_rules == FFT_RULES


def test_a_deal_is_scored_by_the_evenings_rules_with_its_miseres() -> None:
    club, players = make_club()
    services.club_rules_set(club=club, rules=HOUSE)
    _evening, game = start_evening(club, players)
    inputs = _deal(players, poignees=("double",), miseres=(players[2].pk,))
    deal = services.deal_record(game=game, inputs=inputs)
    stored = {row.player_id: row.score for row in deal.scores.all()}
    assert stored == score_deal(inputs, HOUSE)
    assert stored != score_deal(_deal(players, poignees=("double",)), FFT_RULES)
    assert deal.miseres == [players[2].pk]


def test_a_misere_is_refused_when_the_evening_scores_none() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    with pytest.raises(ScoringError):
        services.deal_record(game=game, inputs=_deal(players, miseres=(players[1].pk,)))
    assert not Deal.objects.exists()


def test_a_club_that_changes_its_rules_keeps_every_past_total_identical() -> None:
    club, players = make_club()
    closed, game = start_evening(club, players)
    services.deal_record(game=game, inputs=_deal(players, poignees=("simple",)))
    services.evening_close(evening=closed)
    still_open, game2 = start_evening(club, players)
    services.deal_record(game=game2, inputs=_deal(players, petit_au_bout="attack", bouts=3))
    before = (_totals(closed), _totals(still_open))
    for rules in (
        HOUSE,
        HouseRules(poignee_multiplied=True, petit_au_bout="deal_winner", misere=20),
        FFT_RULES,
        HouseRules(multipliers="classic"),
    ):
        services.club_rules_set(club=club, rules=rules)
        assert (_totals(closed), _totals(still_open)) == before
    closed.refresh_from_db()
    still_open.refresh_from_db()
    assert closed.rules == still_open.rules == {}
    # A deal added to the open evening is still scored by the rules it started with.
    deal = services.deal_record(game=game2, inputs=_deal(players))
    assert {r.player_id: r.score for r in deal.scores.all()} == score_deal(_deal(players))


def test_correcting_a_deal_scores_it_by_the_evenings_rules() -> None:
    club, players = make_club()
    services.club_rules_set(club=club, rules=HOUSE)
    _evening, game = start_evening(club, players)
    deal = services.deal_record(game=game, inputs=_deal(players))
    services.club_rules_set(club=club, rules=FFT_RULES)
    corrected = _deal(players, miseres=(players[3].pk,))
    services.deal_update(deal=deal, inputs=corrected)
    assert {r.player_id: r.score for r in deal.scores.all()} == score_deal(corrected, HOUSE)


def test_a_deleted_deal_comes_back_with_its_miseres() -> None:
    club, players = make_club()
    services.club_rules_set(club=club, rules=HOUSE)
    _evening, game = start_evening(club, players)
    inputs = _deal(players, miseres=(players[1].pk, players[2].pk))
    deleted = services.deal_delete(deal=services.deal_record(game=game, inputs=inputs))
    back = services.deal_restore(deleted=deleted)
    assert back.miseres == [players[1].pk, players[2].pk]
    assert {r.player_id: r.score for r in back.scores.all()} == score_deal(inputs, HOUSE)


def test_the_rescore_scores_every_deal_by_the_new_rules_and_keeps_them() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    first = _deal(players, poignees=("double",))
    second = _deal(players, contract="garde_sans", bouts=3, points=Decimal(40))
    services.deal_record(game=game, inputs=first)
    services.deal_record(game=game, inputs=second)
    version = Evening.objects.get(pk=evening.pk).version
    evening = services.evening_rescore(evening=evening, rules=HOUSE)
    assert evening.rules == HOUSE.to_data()
    assert evening.version > version
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    for deal, inputs in zip(deals, (first, second), strict=True):
        assert {r.player_id: r.score for r in deal.scores.all()} == score_deal(inputs, HOUSE)


def test_the_rescore_refuses_a_closed_evening() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    services.deal_record(game=game, inputs=_deal(players))
    services.evening_close(evening=evening)
    with pytest.raises(services.ServiceError):
        services.evening_rescore(evening=evening, rules=HOUSE)
    evening.refresh_from_db()
    assert evening.rules == {}


def test_the_rescore_refuses_rules_that_cannot_score_a_deal_and_writes_nothing() -> None:
    club, players = make_club()
    services.club_rules_set(club=club, rules=HOUSE)
    evening, game = start_evening(club, players)
    services.deal_record(game=game, inputs=_deal(players))
    services.deal_record(game=game, inputs=_deal(players, miseres=(players[1].pk,)))
    before = _totals(evening)
    with pytest.raises(ScoringError) as refused:
        services.evening_rescore(evening=evening, rules=FFT_RULES)
    assert refused.value.deal == 2
    evening.refresh_from_db()
    assert evening.rules == HOUSE.to_data()
    assert _totals(evening) == before


def test_a_rescore_marks_the_deals_it_moved_for_the_phones_watching() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    services.deal_record(game=game, inputs=_deal(players, contract="petite"))
    services.deal_record(game=game, inputs=_deal(players))
    before = timezone.now()
    services.evening_rescore(evening=evening, rules=HouseRules(multipliers="classic"))
    # Classic multipliers move the garde contre (6 -> 4), not the petite (1 -> 1).
    assert changed_from(game, before + MARGIN) == 2
