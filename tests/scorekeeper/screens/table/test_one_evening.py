"""An evening is one evening: the deal keeps turning across its games, the French Tarot
games add up, and every game can be exported."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.scoring.escopette import STAKE_TRUMPS, EscopetteDeal
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import make_club, start_evening

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def evening_of_two_games(client: Client):
    club, players = make_club()
    evening, game = start_evening(club, players)
    client.force_login(club.memberships.get(role="owner").user)
    ids = tuple(p.pk for p in players)
    garde = TarotDeal(seated=ids, taker=ids[0], contract="garde", bouts=2, points=49)
    for _ in range(2):  # dealt by Ana, then Ben
        services.deal_record(game=game, inputs=garde)
    return client, evening, game, players


def test_a_new_game_starts_with_the_next_dealer_of_the_last(evening_of_two_games) -> None:
    client, evening, _game, players = evening_of_two_games
    page = client.get(reverse("game_new", args=[evening.pk]), **EN)
    assert page.context["form"].initial["first_dealer"] == 3  # Chloé, seat 3, deals next
    escopette = services.game_start(
        evening=evening, players=players, first_dealer=players[2], kind="escopette", target=50
    )
    services.deal_record(
        game=escopette, inputs=EscopetteDeal(stakes=dict.fromkeys(STAKE_TRUMPS, players[0].pk))
    )
    page = client.get(reverse("game_new", args=[evening.pk]), **EN)
    assert page.context["form"].initial["first_dealer"] == 4  # after Chloé: Dan


def test_two_tarot_games_show_the_evening_total_and_each_its_export(evening_of_two_games) -> None:
    client, evening, _game, players = evening_of_two_games
    second = services.game_start(evening=evening, players=players, first_dealer=players[2])
    ids = tuple(p.pk for p in players)
    services.deal_record(
        game=second,
        inputs=TarotDeal(seated=ids, taker=ids[1], contract="petite", bouts=1, points=51),
    )
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "The evening in French Tarot" in page.text
    rows = dict(page.context["evening_total"].rows)
    assert sum(rows.values()) == 0
    first_total = dict(page.context["sheets"][0].totals_by_player)
    second_total = dict(page.context["sheets"][1].totals_by_player)
    assert rows == {p: first_total[p] + second_total[p] for p in players}
    for number in (1, 2):
        url = f"{reverse('evening_export_json', args=[evening.pk])}?game={number}"
        assert f'href="{url}"' in page.text
        assert client.get(url).status_code == 200
    assert 'aria-label="Totals of game 1"' in page.text
    assert 'aria-label="Totals of game 2"' in page.text


def test_one_game_shows_no_evening_total(evening_of_two_games) -> None:
    client, evening, _game, _players = evening_of_two_games
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert "The evening in French Tarot" not in page.text
