"""Parts of the evening page a scorer relies on: one "next dealer" (the current game's),
the leader marked, the sheet's short bids, and messages a screen reader hears as a list;
viewed again at the same version, it draws them from the cache."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from scorekeeper import services
from scorekeeper.models import Game
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import make_club, start_evening

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def table(client: Client):
    club, players = make_club()
    evening, game = start_evening(club, players)
    client.force_login(club.memberships.get(role="owner").user)
    return client, evening, game, players


def garde(game: Game, players, taker: int) -> None:
    seated = tuple(p.pk for p in players)
    services.deal_record(
        game=game,
        inputs=TarotDeal(
            seated=seated, taker=seated[taker], contract="garde", bouts=2, points=Decimal(51)
        ),
    )


def test_only_the_current_game_says_who_deals_next(table) -> None:
    client, evening, game, players = table
    garde(game, players, 0)
    services.game_start(evening=evening, players=players, first_dealer=players[2])
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert page.text.count('class="next-dealer"') == 1
    assert "Next dealer: <strong>Chloé</strong>" in page.text


def test_the_sheet_writes_the_bid_in_short_and_stars_the_leader(table) -> None:
    client, evening, game, players = table
    garde(game, players, 1)
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert '<abbr class="short-bid positive" title="Garde">G✓</abbr>' in page.text
    assert page.text.count('<td class="leader">') == 1  # Ben, the taker, leads
    assert "Ben Garde, made by" in page.text  # the whole deal, for a screen reader


def test_the_running_total_is_named_in_the_readers_language(table) -> None:
    client, evening, game, players = table
    garde(game, players, 1)
    with translation.override("en"):
        page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert '<span class="visually-hidden">total </span>' in page.text


def test_messages_are_a_list_inside_a_status_region(table) -> None:
    client, evening, game, players = table
    deal_id = None
    garde(game, players, 0)
    deal_id = game.deals.get().pk
    client.post(reverse("deal_delete", args=[evening.pk, deal_id]))
    client.post(
        reverse("deal_restore", args=[evening.pk, evening.games.get().deleted_deals.get().pk])
    )
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert '<div role="status" class="flash-messages"><ul class="messages">' in page.text
    assert 'ul class="messages" role="status"' not in page.text


def test_the_page_viewed_again_reads_no_score_in_four_queries_its_parts_cached(table) -> None:
    client, evening, game, players = table
    garde(game, players, 1)
    url = reverse("evening", args=[evening.pk])
    first = client.get(url, **EN)
    with CaptureQueriesContext(connection) as again:
        second = client.get(url, **EN)
    assert not [q for q in again.captured_queries if "scorekeeper_dealscore" in q["sql"]]
    # The session (none when sessions are read from Redis), the account, the evening, the
    # membership: its games and seats are cached under its version too.
    assert len(again.captured_queries) <= 4
    for part in ('class="strip-scores"', 'class="game-totals"', 'class="bid-grid'):
        assert second.text.count(part) == first.text.count(part) == 1, part
