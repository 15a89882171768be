"""A deal's one-time key: the very same deal sent again is "already saved", once; the key
with another deal is refused in words (nothing saved, the form kept); a deletion and its
undo keep the key."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal
from tests.factories import deal_post, make_club, start_evening

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
KEY = "k" * 32


@pytest.fixture
def table(client: Client):
    club, players = make_club()
    evening, game = start_evening(club, players)
    client.force_login(club.memberships.get(role="owner").user)
    return client, evening, game, players


def save(client: Client, evening, game, players, *, htmx: bool = False, **fields):
    answers = {
        "dealer": players[0].pk,
        "taker": players[1].pk,
        "contract": "garde",
        "bouts": 2,
        "points": 51,
        "idempotency_key": KEY,
        **fields,
    }
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(
        reverse("deal_create", args=[evening.pk, game.pk]), deal_post(**answers), **EN, **headers
    )


def test_the_very_same_deal_sent_twice_is_stored_once(table) -> None:
    client, evening, game, players = table
    assert save(client, evening, game, players, number=1).status_code == 302
    again = save(client, evening, game, players, number=1, htmx=True)
    assert again.status_code == 200
    # That tap stored nothing: it is not said "saved".
    assert "Deal 1 saved." not in again.text
    assert "Deal 1 was saved already: nothing new is stored." in again.text
    assert Deal.objects.filter(game=game).count() == 1


def test_the_key_back_with_other_answers_is_refused_in_words_and_the_form_keeps_them(
    table,
) -> None:
    client, evening, game, players = table
    save(client, evening, game, players, number=1)
    response = save(client, evening, game, players, number=1, points=38, htmx=True)
    assert response.status_code == 422
    assert "This deal was not saved" in response.text
    assert 'value="38"' in response.text  # what was typed stays
    assert Deal.objects.get(game=game).points == 51
    # The form has a key of its own and the next number: saving it again stores deal 2.
    form = response.context["sheets"][0].form
    assert form.data["deal-idempotency_key"] != KEY
    assert form.data["deal-number"] == "2"
    resent = save(
        client,
        evening,
        game,
        players,
        number=2,
        points=38,
        idempotency_key=form.data["deal-idempotency_key"],
    )
    assert resent.status_code == 302
    assert list(Deal.objects.filter(game=game).values_list("number", "points")) == [
        (1, 51),
        (2, 38),
    ]


def test_the_key_back_with_another_deal_number_is_not_a_success(table) -> None:
    client, evening, game, players = table
    save(client, evening, game, players, number=1)
    save(client, evening, game, players, number=2, idempotency_key="other")
    response = save(client, evening, game, players, number=3, htmx=True)
    assert response.status_code == 422
    assert "This deal was not saved: the form was the one of deal 1" in response.text
    assert Deal.objects.filter(game=game).count() == 2


def test_a_deleted_then_restored_deal_keeps_its_key_so_resending_it_stores_no_copy(
    table,
) -> None:
    client, evening, game, players = table
    save(client, evening, game, players, number=1)
    deleted = services.deal_delete(deal=Deal.objects.get(game=game))
    services.deal_restore(deleted=deleted)
    assert Deal.objects.get(game=game).idempotency_key == KEY
    again = save(client, evening, game, players, htmx=True)  # no deal-number: an old phone
    assert "Deal 1 was saved already" in again.text
    assert Deal.objects.filter(game=game).count() == 1


def test_the_key_of_a_deleted_deal_resent_is_refused_not_stored_again(table) -> None:
    client, evening, game, players = table
    save(client, evening, game, players, number=1)
    services.deal_delete(deal=Deal.objects.get(game=game))
    response = save(client, evening, game, players, htmx=True)
    assert response.status_code == 422
    assert "which was deleted since" in response.text
    assert not Deal.objects.filter(game=game).exists()


def test_the_counter_round_trip_then_three_saves_and_a_reload_keep_every_deal(table) -> None:
    client, evening, game, players = table
    url = reverse("evening", args=[evening.pk])
    page = client.get(url)
    key = page.context["sheets"][0].form.initial["idempotency_key"]
    back = client.get(
        url,
        {
            "deal-idempotency_key": key,
            "deal-number": 1,
            "deal-taker": players[1].pk,
            "deal-points": "51",
            "deal-bouts": "2",
            "deal-contract": "garde",
        },
        follow=True,
    )
    assert back.redirect_chain[-1][0] == url  # the address is the evening's again
    save(client, evening, game, players, number=1, idempotency_key=key)
    save(client, evening, game, players, number=2, idempotency_key="second", points=40)
    save(client, evening, game, players, number=3, idempotency_key="third", points=60)
    reloaded = client.get(url).context["sheets"][0].form
    fresh_key = reloaded.initial["idempotency_key"]
    assert fresh_key not in {key, "second", "third"}
    assert reloaded.initial["number"] == 4
    save(client, evening, game, players, number=4, idempotency_key=fresh_key, points=70)
    assert list(
        Deal.objects.filter(game=game).order_by("number").values_list("points", flat=True)
    ) == [51, 40, 60, 70]
