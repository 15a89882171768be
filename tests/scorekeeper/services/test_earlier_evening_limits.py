"""What one member can make the club's figures compute again: a change to an evening dated
before the club's last one has every deal rated again, so each account may make
``OLD_EVENING_CHANGES_PER_HOUR`` of them an hour (a setting); tonight's deals are not
counted."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone, translation

from scorekeeper import services
from scorekeeper.models import CostlyAction, Deal
from scorekeeper.scoring.tarot import TarotDeal
from scorekeeper.services import costly
from tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db

CHANGES = 30  # settings.OLD_EVENING_CHANGES_PER_HOUR


def _garde(players) -> TarotDeal[int]:
    seated = tuple(p.pk for p in players)
    return TarotDeal(seated=seated, taker=seated[1], contract="garde", bouts=2, points="49")


def _evening(club, players, by, days_ago: int):
    evening = services.evening_start(
        club=club,
        players=players,
        first_dealer=players[0],
        created_by=by,
        date=timezone.localdate() - dt.timedelta(days=days_ago),
    )
    return evening, evening.games.get()


def test_deals_saved_on_an_evening_dated_before_the_clubs_last_are_limited_per_account() -> None:
    club, players = make_club()
    member = make_member(club)
    _tonight, tonight_game = _evening(club, players, member, 0)
    _old, old_game = _evening(club, players, member, 30)  # dated before the others
    for _ in range(CHANGES):
        services.deal_record(game=old_game, inputs=_garde(players), created_by=member)
    with translation.override("en"), pytest.raises(costly.TooCostly, match="try again in 60"):
        services.deal_record(game=old_game, inputs=_garde(players), created_by=member)
    assert Deal.objects.filter(game=old_game).count() == CHANGES
    # Corrections and deletions count too.
    with pytest.raises(costly.TooCostly):
        services.deal_delete(deal=Deal.objects.filter(game=old_game).first(), deleted_by=member)
    # Tonight's deals are not counted, and another account has changes of its own.
    for _ in range(3):
        services.deal_record(game=tonight_game, inputs=_garde(players), created_by=member)
    owner = club.memberships.get(role="owner").user
    services.deal_record(game=old_game, inputs=_garde(players), created_by=owner)


def test_the_evening_dated_last_is_not_counted_whatever_its_date() -> None:
    club, players = make_club()
    member = make_member(club)
    _evening(club, players, member, 60)
    _last, last_game = _evening(club, players, member, 2)  # played two days ago, the last
    for _ in range(CHANGES + 2):
        services.deal_record(game=last_game, inputs=_garde(players), created_by=member)
    assert not CostlyAction.objects.exists()


def test_a_setting_of_zero_lifts_the_limit(settings) -> None:
    settings.OLD_EVENING_CHANGES_PER_HOUR = 0
    club, players = make_club()
    member = make_member(club)
    _evening(club, players, member, 0)
    _old, old_game = _evening(club, players, member, 30)
    for _ in range(5):
        services.deal_record(game=old_game, inputs=_garde(players), created_by=member)
    assert not CostlyAction.objects.exists()
