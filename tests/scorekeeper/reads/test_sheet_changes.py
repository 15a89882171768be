"""Which rows of a sheet a phone must redraw: from the lowest deal saved or deleted since."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Deal, Game
from scorekeeper.reads.sheet_changes import MARGIN, changed_from
from scorekeeper.scoring.tarot import PassedDeal
from tests.factories import make_club, start_evening

pytestmark = pytest.mark.django_db


def three_deals(club=None, players=None) -> Game:
    if club is None:
        club, players = make_club()
    _evening, game = start_evening(club, players)
    seated = tuple(game.seats.values_list("player", flat=True))
    for _ in range(3):
        services.deal_record(game=game, inputs=PassedDeal(seated=seated))
    return game


def test_nothing_changed_since_the_moment_gives_none_and_no_moment_gives_every_row(
    django_assert_num_queries,
) -> None:
    game = three_deals()
    later = timezone.now() + MARGIN + dt.timedelta(seconds=5)
    with django_assert_num_queries(1):
        assert changed_from(game, later) is None
    assert changed_from(game, None) == 1


def test_the_lowest_deal_saved_or_deleted_since_the_moment_is_the_first_to_redraw(
    django_assert_num_queries,
) -> None:
    game = three_deals()
    long_ago = timezone.now() - dt.timedelta(hours=1)
    Deal.objects.filter(game=game).update(updated_at=long_ago)
    moment = timezone.now() - dt.timedelta(minutes=1)
    assert changed_from(game, moment) is None
    Deal.objects.filter(game=game, number=3).update(updated_at=timezone.now())
    assert changed_from(game, moment) == 3
    services.deal_delete(deal=Deal.objects.get(game=game, number=2))
    with django_assert_num_queries(1):
        assert changed_from(game, moment) == 2
    other = three_deals(game.evening.club, list(game.evening.club.players.all()[:4]))
    Deal.objects.filter(game=other).update(updated_at=long_ago)
    assert changed_from(other, moment) is None  # another game's changes are its own
