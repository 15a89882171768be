"""A save from the page reads the table as the page's version keeps it, and keeps the
evening's games at the version it makes from those before, when it was the one change:
they read as the games read afresh."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Evening, Game
from scorekeeper.scoring.tarot import PassedDeal
from scorekeeper.screens.table.evening_page import _tables_of, keep_tables_after_save
from tests.factories import deal_post, make_club, start_evening

pytestmark = pytest.mark.django_db


def as_read(evening: Evening) -> list[tuple[int, int | None, int | None, list[int]]]:
    return [
        (game.pk, game.last_number, game.last_dealer, [seat.pk for seat in seats])
        for game, seats in _tables_of(evening)
    ]


def test_a_save_from_the_page_reads_no_seat_and_keeps_the_games_as_read_afresh() -> None:
    club, players = make_club(players=["Ana", "Ben", "Cid", "Dom", "Eve"])
    evening, game = start_evening(club, players)
    client = Client()
    client.force_login(club.memberships.get(role="owner").user)
    url = reverse("deal_create", args=[evening.pk, game.pk])
    for number, key in ((1, "first"), (2, "second")):
        assert client.get(reverse("evening", args=[evening.pk])).status_code == 200
        post = deal_post(
            dealer=players[number - 1].pk,
            taker=players[1].pk,
            partner=players[2].pk,
            contract="garde",
            bouts=2,
            points="61",
            number=number,
            idempotency_key=key,
        )
        with CaptureQueriesContext(connection) as captured:
            answer = client.post(url, post, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200
        assert not [q for q in captured.captured_queries if "scorekeeper_seat" in q["sql"]]
    evening = Evening.objects.get(pk=evening.pk)
    kept = as_read(evening)
    cache.clear()
    assert kept == as_read(evening) == [(game.pk, 2, players[1].pk, kept[0][3])]


def test_the_games_are_not_kept_when_another_change_came_between() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    before = Evening.objects.get(pk=evening.pk)
    _tables_of(before)
    services.seat_leave(game=game, player=players[3])  # another phone, meanwhile
    seen = Game.objects.select_related("evening").get(pk=game.pk)
    deal = services.deal_record(
        game=seen,
        inputs=PassedDeal(seated=tuple(p.pk for p in players[:3])),
        dealer=players[0],
    )
    after = deal.game.evening
    assert after.version == before.version + 2
    keep_tables_after_save(before, after, deal)
    with CaptureQueriesContext(connection) as captured:
        _tables_of(after)
    assert captured.captured_queries  # read afresh, not kept from before the seat changed
