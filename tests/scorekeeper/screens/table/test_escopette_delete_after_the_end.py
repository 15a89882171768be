"""Deleting a deal of a finished game of L'escopette, and games the rules cannot replay.

Issue 11, item 2: deleting deal 1 of a game that ended at deal 3 left a stored game that no
longer replays (the game would end after the new deal 1 with a deal following), and every
page of the evening answered 500. The delete is refused now; and a stored game that cannot
be replayed (an older database, the admin) still renders, saying what is wrong.
"""

from __future__ import annotations

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal, Evening, Game
from scorekeeper.services.figures import refresh_figures
from tests.factories import NAMES, make_club

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def stakes(players, **winners: list[int]) -> dict[str, object]:
    """POST data: ``A=[20, 12]`` gives those stake trumps to the first player, and so on."""
    data: dict[str, object] = {"deal-dealer": players[0].pk}
    by_letter = dict(zip("ABCD", players, strict=True))
    for letter, trumps in winners.items():
        for trump in trumps:
            data[f"deal-stake_{trump}"] = by_letter[letter].pk
    return data


@pytest.fixture
def finished(client: Client):
    """The reproduction of the issue: to 50, C wins the game with deal 3."""
    club, players = make_club(players=NAMES[:4])
    owner = club.memberships.get().user
    evening = services.evening_start(
        club=club,
        players=players,
        first_dealer=players[0],
        created_by=owner,
        kind=Game.Kind.ESCOPETTE,
        target=50,
    )
    game = evening.games.get()
    client.force_login(owner)
    url = reverse("deal_create", args=[evening.pk, game.pk])
    deals = [
        stakes(players, B=[20, 12, 7, 1], C=[2, 3, 4, 5, 6]),
        stakes(players, A=[20, 12, 7, 6, 5], B=[4, 3, 2, 1]),
        stakes(players, C=[1, 2, 3, 4, 5, 6, 7, 12, 20]),
    ]
    for data in deals:
        assert client.post(url, data).status_code == 302
    assert game.deals.count() == 3
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "Chloé wins the game with 80 points." in page.text
    return client, evening, game


def _pages(evening) -> list[str]:
    services.share_link_create(evening=evening)
    evening.refresh_from_db()
    token = evening.share_token
    return [
        reverse("evening", args=[evening.pk]),
        reverse("evening_live", args=[evening.pk]),
        reverse("evening_shared", args=[token]),
        reverse("evening_shared_live", args=[token]),
        reverse("club", args=[evening.club_id]),
        reverse("seasons", args=[evening.club_id]),
    ]


def test_deleting_deal_1_of_a_finished_game_is_refused_with_a_message(finished) -> None:
    client, evening, game = finished
    first = game.deals.get(number=1)
    response = client.post(reverse("deal_delete", args=[evening.pk, first.pk]), follow=True, **EN)
    assert response.status_code == 200
    assert "the game would end after deal 1" in response.text
    assert game.deals.get(number=1).pk == first.pk
    assert game.deals.count() == 3
    assert not game.deleted_deals.exists()
    for url in _pages(evening):
        assert client.get(url, **EN).status_code == 200, url


def test_deleting_the_last_deal_of_a_finished_game_still_works(finished) -> None:
    client, evening, game = finished
    last = game.deals.get(number=3)
    response = client.post(reverse("deal_delete", args=[evening.pk, last.pk]))
    assert response.status_code == 302
    assert game.deals.count() == 2


def _break(game: Game) -> None:
    """What today's delete did: deal 1 gone, the others moved down, no check."""
    game.deals.get(number=1).delete()
    game.deals.update(number=-F("number"))
    game.deals.update(number=-F("number") - 1)
    Evening.objects.filter(pk=game.evening_id).update(version=F("version") + 1)
    # Stored before the read model: its migration computed the evening's figures from them.
    refresh_figures([game.evening_id])


def test_a_stored_game_that_cannot_be_replayed_still_renders_with_a_message(finished) -> None:
    client, evening, game = finished
    _break(game)
    assert list(game.deals.values_list("number", flat=True).order_by("number")) == [1, 2]
    for url in _pages(evening):
        response = client.get(url, **EN)
        assert response.status_code == 200, url
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "These deals cannot be replayed" in page.text
    assert "the game ended after deal 1" in page.text
    club_page = client.get(reverse("club", args=[evening.club_id]), **EN)
    assert "1 game cannot be replayed by the rules: its winner is not counted." in club_page.text
    player = game.seats.first().player
    url = reverse("player", args=[evening.club_id, player.pk])
    player_page = client.get(url, **EN)
    assert player_page.status_code == 200
    assert "1 game cannot be replayed by the rules" in player_page.text
    deal = game.deals.get(number=1)
    assert client.get(reverse("deal_edit", args=[evening.pk, deal.pk]), **EN).status_code == 200


def test_a_new_deal_in_a_game_that_cannot_be_replayed_is_refused_with_a_message(
    finished,
) -> None:
    client, evening, game = finished
    _break(game)
    players = [seat.player for seat in game.seats.order_by("position")]
    url = reverse("deal_create", args=[evening.pk, game.pk])
    response = client.post(url, stakes(players, A=[1, 2, 3, 4, 5, 6, 7, 12, 20]), **EN)
    assert response.status_code == 422  # refused: the form with its message
    assert "cannot be replayed" in response.text
    assert Deal.objects.filter(game=game).count() == 2
