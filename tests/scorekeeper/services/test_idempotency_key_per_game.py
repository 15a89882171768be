"""The idempotency key names a save within its game (issue 11, item 7).

It was unique site-wide: a member of club A posting a key already used in club B got
"Deal 4 saved" and nothing was stored.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import deal_post, make_club, make_user, start_evening

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def garde(players) -> TarotDeal:
    seated = tuple(p.pk for p in players)
    return TarotDeal(seated=seated, taker=seated[0], contract="garde", bouts=2, points="49")


def test_a_key_used_in_another_club_is_a_new_key_here(client: Client) -> None:
    club_b, players_b = make_club(name="Club B")
    _evening_b, game_b = start_evening(club_b, players_b)
    used = services.deal_record(game=game_b, inputs=garde(players_b), idempotency_key="k-123")
    owner_a = make_user("zoe@example.com", "Zoé")
    club_a, players_a = make_club(owner_a, name="Club A")
    evening_a, game_a = start_evening(club_a, players_a)
    client.force_login(owner_a)
    data = deal_post(
        dealer=players_a[0].pk,
        taker=players_a[0].pk,
        contract="garde",
        bouts=2,
        points="49",
        idempotency_key="k-123",
    )
    url = reverse("deal_create", args=[evening_a.pk, game_a.pk])
    response = client.post(url, data, follow=True, **EN)
    assert "Deal 1 saved." in response.text
    stored = Deal.objects.get(game=game_a)
    assert stored.pk != used.pk
    assert stored.scores.get(player=players_a[0]).score == 198
    assert Deal.objects.get(game=game_b).pk == used.pk  # club B's deal untouched


def test_the_same_key_in_the_same_game_still_stores_one_deal() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    first = services.deal_record(game=game, inputs=garde(players), idempotency_key="tap")
    again = services.deal_record(game=game, inputs=garde(players), idempotency_key="tap")
    assert again.pk == first.pk
    assert game.deals.count() == 1


def test_two_games_of_one_evening_may_use_the_same_key() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    second = services.game_start(
        evening=evening, players=players, first_dealer=players[1], kind="tarot"
    )
    one = services.deal_record(game=game, inputs=garde(players), idempotency_key="k")
    two = services.deal_record(game=second, inputs=garde(players), idempotency_key="k")
    assert one.pk != two.pk
    assert (one.game_id, two.game_id) == (game.pk, second.pk)
