"""A deal's save reads what it decides on once, under the evening's and the game's locks:
the last number, the deal its one-time key stored and whether a deletion waits, in one query;
and it hands its answer the evening as it left it (the version it made), so the answer reads
it no more."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal, Evening, Game
from scorekeeper.scoring.tarot import TarotDeal
from scorekeeper.services.deal_keys import DealKeyUsed
from tests.factories import deal_post, make_club, start_evening

pytestmark = pytest.mark.django_db


def garde(players, points: str = "49") -> TarotDeal:
    seated = tuple(p.pk for p in players)
    return TarotDeal(seated=seated, taker=seated[0], contract="garde", bouts=2, points=points)


def selects(queries: list[dict[str, str]]) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")]


def test_a_save_reads_its_number_and_key_in_one_query_after_the_lock() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    services.deal_record(game=game, inputs=garde(players), idempotency_key="first")
    with CaptureQueriesContext(connection) as captured:
        deal = services.deal_record(
            game=game, inputs=garde(players), dealer=players[1], idempotency_key="second"
        )
    assert deal.number == 2
    # As the phone saves (its form names the dealer): the evening locked, then the game with
    # its facts (the services' one lock order), the players at the table; their totals so far
    # (the new score rows' running totals); then the evening's French Tarot figures computed
    # again (its L'escopette ones unchanged; the checkpoints it drops are found in their
    # DELETE), and nothing else is read.
    assert len(selects(captured.captured_queries)) == 2 + 2 + 1
    assert not any(
        'FROM "scorekeeper_deleteddeal"' in sql.split(" WHERE ")[0]
        for sql in selects(captured.captured_queries)
    )


def test_the_players_the_caller_read_stand_while_the_evening_is_at_that_version() -> None:
    club, players = make_club(players=["Ana", "Ben", "Cid", "Dom", "Eve"])
    _evening, game = start_evening(club, players[:4])
    game = Game.objects.select_related("evening").get(pk=game.pk)  # as the view reads it
    read = list(players[:4])
    with CaptureQueriesContext(connection) as captured:
        services.deal_record(game=game, inputs=garde(read), dealer=read[0], present=read)
    assert not [sql for sql in selects(captured.captured_queries) if "scorekeeper_seat" in sql]
    # Eve sits down after the view read the table: the save reads it again under its lock.
    game = Game.objects.select_related("evening").get(pk=game.pk)
    services.seat_join(game=game, player=players[4])
    deal = services.deal_record(game=game, inputs=garde(read), dealer=read[0], present=read)
    assert set(deal.scores.values_list("player_id", flat=True)) == {p.pk for p in players}


def test_a_deletion_waiting_still_refuses_its_key_and_numbers_go_on() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    services.deal_record(game=game, inputs=garde(players), idempotency_key="kept")
    gone = services.deal_record(game=game, inputs=garde(players, "60"), idempotency_key="gone")
    services.deal_delete(deal=gone)
    with pytest.raises(DealKeyUsed):
        services.deal_record(game=game, inputs=garde(players, "60"), idempotency_key="gone")
    fresh = services.deal_record(game=game, inputs=garde(players, "30"), idempotency_key="new")
    assert fresh.number == 2
    assert list(game.deals.order_by("number").values_list("idempotency_key", flat=True)) == [
        "kept",
        "new",
    ]


def test_the_deal_saved_carries_its_evening_at_the_version_it_made() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    before = Evening.objects.get(pk=evening.pk).version
    deal = services.deal_record(game=game, inputs=garde(players), idempotency_key="tap")
    stored = Evening.objects.get(pk=evening.pk)
    assert stored.version == before + 1
    carried = deal.game.evening
    assert carried.version == stored.version


def test_the_deal_sent_again_carries_its_evening_as_it_stands() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    first = services.deal_record(game=game, inputs=garde(players), idempotency_key="tap")
    services.deal_record(game=game, inputs=garde(players, "70"), idempotency_key="next")
    again = services.deal_record(game=game, inputs=garde(players), idempotency_key="tap")
    assert again.pk == first.pk
    stored = Evening.objects.get(pk=evening.pk)
    assert again.game.evening.version == stored.version


def test_the_saves_answer_reads_the_evening_once_and_shows_the_new_totals() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    client = Client()
    client.force_login(club.memberships.get(role="owner").user)
    assert client.get(reverse("evening", args=[evening.pk])).status_code == 200
    post = deal_post(
        dealer=players[0].pk,
        taker=players[1].pk,
        contract="garde",
        bouts=2,
        points="61",
        number=1,
        idempotency_key="answer",
    )
    url = reverse("deal_create", args=[evening.pk, game.pk])
    with CaptureQueriesContext(connection) as captured:
        answer = client.post(url, post, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    reads = [
        sql
        for sql in selects(captured.captured_queries)
        if 'FROM "scorekeeper_evening"' in sql.split(" WHERE ")[0]
    ]
    assert reads == []  # the access check reads it with the game; the answer from the lock
    view = answer.context["sheets"][0]
    assert view.evening.version == Evening.objects.get(pk=evening.pk).version
    stored = {s.player_id: s.score for s in Deal.objects.get(game=game).scores.all()}
    assert dict((p.pk, total) for p, total in view.sheet.totals_by_player) == stored
