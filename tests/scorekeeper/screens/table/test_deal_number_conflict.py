"""The deal-number check: a deal form knows which deal it is for; two phones never store a
copy silently."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import deal_post, make_club, start_evening

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(client: Client):
    club, players = make_club()
    owner = club.memberships.get(role="owner").user
    evening, game = start_evening(club, players)
    client.force_login(owner)
    return client, evening, game, players


def a_garde(players, taker: int = 0, **extra: object) -> dict[str, object]:
    fields: dict[str, object] = dict(
        dealer=players[0].pk, taker=players[taker].pk, contract="garde", bouts=2, points="49"
    )
    return {**fields, **extra}


def save(client: Client, evening, game, *, htmx: bool = False, **fields):
    headers = {**EN, **(HTMX if htmx else {})}
    return client.post(
        reverse("deal_create", args=[evening.pk, game.pk]), deal_post(**fields), **headers
    )


def test_the_new_deal_form_carries_the_number_it_is_for(table) -> None:
    client, evening, game, players = table
    save(client, evening, game, **a_garde(players, number=1, idempotency_key="k1"))
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    assert 'name="deal-number" value="2"' in page.text


def test_the_service_refuses_a_number_already_taken_and_names_the_deal(table) -> None:
    _client, _evening, game, players = table
    ids = tuple(p.pk for p in players)
    inputs = TarotDeal(seated=ids, taker=ids[0], contract="garde", bouts=2, points=49)
    first = services.deal_record(game=game, inputs=inputs, expected_number=1, idempotency_key="a")
    with pytest.raises(services.DealNumberTaken) as taken:
        services.deal_record(game=game, inputs=inputs, expected_number=1, idempotency_key="b")
    assert taken.value.deal == first
    assert taken.value.next_number == 2
    assert isinstance(taken.value, services.ServiceError)
    # The same key is the same deal, whatever number it was for.
    again = services.deal_record(game=game, inputs=inputs, expected_number=1, idempotency_key="a")
    assert again == first
    assert Deal.objects.count() == 1


def test_the_second_phone_gets_409_and_the_question_instead_of_a_copy(table) -> None:
    client, evening, game, players = table
    first = save(
        client, evening, game, htmx=True, **a_garde(players, number=1, idempotency_key="A")
    )
    assert first.status_code == 200
    second = save(
        client, evening, game, htmx=True, **a_garde(players, taker=1, number=1, idempotency_key="B")
    )
    assert second.status_code == 409
    assert second["X-Deal-Conflict"] == "1"
    assert "Deal 1 was saved on another phone meanwhile." in second.text
    assert "Same deal — discard mine" in second.text
    assert "Another deal — save as 2" in second.text
    assert 'name="deal-number" value="2"' in second.text
    # Deal 1 was Ana's to deal: "another deal" is Ben's, as the table turns.
    assert f'<option value="{players[1].pk}" selected>' in second.text
    assert Deal.objects.count() == 1
    # "Another deal": the same fields and key, for number 2.
    third = save(
        client, evening, game, htmx=True, **a_garde(players, taker=1, number=2, idempotency_key="B")
    )
    assert third.status_code == 200
    assert list(Deal.objects.values_list("number", "taker__name")) == [(1, "Ana"), (2, "Ben")]


def test_without_javascript_the_question_is_the_whole_page_with_409(table) -> None:
    client, evening, game, players = table
    save(client, evening, game, **a_garde(players, number=1, idempotency_key="A"))
    response = save(client, evening, game, **a_garde(players, number=1, idempotency_key="B"))
    assert response.status_code == 409
    assert "<html" in response.text
    assert "Is yours the same deal?" in response.text


def test_a_refused_save_answers_422_and_the_address_left_reloads_to_the_evening(table) -> None:
    client, evening, game, players = table
    response = save(client, evening, game, htmx=True, **a_garde(players, points="95"))
    assert response.status_code == 422
    assert "The deal is not saved:" in response.text
    assert 'href="#id_deal-points"' in response.text
    reload = client.get(reverse("deal_create", args=[evening.pk, game.pk]))
    assert reload.status_code == 302
    assert reload["Location"] == f"/evenings/{evening.pk}/#game-{game.pk}"


def test_an_htmx_save_answers_the_next_form_in_place_with_the_new_totals(table) -> None:
    client, evening, game, players = table
    response = save(client, evening, game, htmx=True, **a_garde(players, number=1))
    assert response.status_code == 200
    assert "Deal 1 saved." in response.text
    assert f'id="game-{game.pk}"' in response.text
    assert 'name="deal-number" value="2"' in response.text
    assert 'id="live-totals" hx-swap-oob="true"' in response.text
    assert "<html" not in response.text


def test_a_typed_number_that_is_not_a_number_is_refused(table) -> None:
    client, evening, game, players = table
    response = save(client, evening, game, **a_garde(players, number="²"))
    assert response.status_code == 422
    assert not Deal.objects.exists()


def test_live_follow_brings_a_member_the_next_form_and_a_shared_page_none(table) -> None:
    client, evening, game, players = table
    save(client, evening, game, **a_garde(players, number=1))
    live = client.get(reverse("evening_live", args=[evening.pk]), {"version": 0}, **EN)
    assert f'<template data-next-entry="{game.pk}">' in live.text
    assert 'name="deal-number" value="2"' in live.text
    services.share_link_create(evening=evening)
    evening.refresh_from_db()
    shared = Client().get(reverse("evening_shared_live", args=[evening.share_token]))
    assert "data-next-entry" not in shared.text


def test_count_the_pile_without_javascript_drops_the_csrf_token_from_the_address(client) -> None:
    response = client.get(
        reverse("counter"), {"csrfmiddlewaretoken": "secret", "deal-points": "40", "return": "/"}
    )
    assert response.status_code == 302
    assert "csrfmiddlewaretoken" not in response["Location"]
    assert "deal-points=40" in response["Location"]
