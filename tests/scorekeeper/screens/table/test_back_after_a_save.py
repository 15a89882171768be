"""Back after a save: a page reached by Back never fills a form with a deal already stored,
a save says "saved" only when that tap stored a deal, and the dealer follows from the
stored deals."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal
from tests.factories import deal_post, make_club, start_evening

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def table(client: Client):
    club, players = make_club()
    evening, game = start_evening(club, players)
    client.force_login(club.memberships.get(role="owner").user)
    return client, evening, game, players


def answers(players, **fields):
    return {
        "taker": players[1].pk,
        "contract": "garde",
        "partner": players[3].pk,
        "bouts": 2,
        "points": 51,
        **fields,
    }


def save(client: Client, evening, game, **fields):
    return client.post(
        reverse("deal_create", args=[evening.pk, game.pk]),
        deal_post(**fields),
        HTTP_HX_REQUEST="true",
        **EN,
    )


def next_form(client: Client, evening):
    page = client.get(reverse("evening", args=[evening.pk]), **EN)
    return page, page.context["sheets"][-1].form


def test_the_count_of_a_deal_saved_since_fills_nothing_and_says_so(table) -> None:
    client, evening, game, players = table
    _page, form = next_form(client, evening)
    key, dealer = form.initial["idempotency_key"], form.initial["dealer"]
    # Deal 1's answers went to the counter and came back; deal 1 was saved, then deal 2.
    carried = {f"deal-{k}": v for k, v in answers(players).items()}
    carried.update({"deal-idempotency_key": key, "deal-number": 1, "deal-dealer": dealer})
    assert (
        save(
            client, evening, game, **answers(players), dealer=dealer, idempotency_key=key, number=1
        ).status_code
        == 200
    )
    _page, form = next_form(client, evening)
    save(
        client,
        evening,
        game,
        **answers(players, points=40),
        dealer=form.initial["dealer"],
        idempotency_key=form.initial["idempotency_key"],
        number=2,
    )
    # Back to deal 1's counter page, and "Use this result".
    url = reverse("evening", args=[evening.pk]) + "?" + urlencode(carried)
    page = client.get(url, follow=True, **EN)
    form = page.context["sheets"][-1].form
    assert "The count brought back was for deal 1, which is saved already" in page.text
    assert form.initial["number"] == 3
    assert form.initial["idempotency_key"] != key
    assert form.initial.get("taker") is None and form.initial.get("points") is None
    expected = services.next_dealer(game, services.present_players(game))
    assert form.initial["dealer"] == expected.pk
    assert not form.returned


def test_the_very_same_deal_sent_again_is_not_said_saved(table) -> None:
    client, evening, game, players = table
    _page, form = next_form(client, evening)
    fields = {
        **answers(players),
        "dealer": form.initial["dealer"],
        "number": 1,
        "idempotency_key": form.initial["idempotency_key"],
    }
    first = save(client, evening, game, **fields)
    assert "✓ Deal 1 saved." in first.text
    again = save(client, evening, game, **fields)
    assert again.status_code == 200
    assert "Deal 1 saved." not in again.text
    assert "Deal 1 was saved already: nothing new is stored." in again.text
    assert Deal.objects.filter(game=game).count() == 1


def test_a_used_key_with_other_answers_gets_the_dealer_of_the_stored_deals(table) -> None:
    client, evening, game, players = table
    _page, form = next_form(client, evening)
    first_dealer = form.initial["dealer"]
    fields = {
        **answers(players),
        "dealer": first_dealer,
        "number": 1,
        "idempotency_key": form.initial["idempotency_key"],
    }
    save(client, evening, game, **fields)
    _page, form = next_form(client, evening)
    second_dealer = form.initial["dealer"]
    save(
        client,
        evening,
        game,
        **answers(players, points=40),
        dealer=second_dealer,
        number=2,
        idempotency_key=form.initial["idempotency_key"],
    )
    # Deal 1's form again (an old page), with other answers: refused, and the form offered
    # for deal 3 has deal 3's dealer, not deal 1's.
    refused = save(client, evening, game, **{**fields, "points": 30})
    assert refused.status_code == 422
    offered = refused.context["sheets"][-1].form
    assert offered.data["deal-number"] == "3"
    third = services.next_dealer(game, services.present_players(game))
    assert third.pk != first_dealer
    assert offered.data["deal-dealer"] == str(third.pk)
    resent = save(
        client,
        evening,
        game,
        **{k[5:]: v for k, v in offered.data.items() if k.startswith("deal-")},
    )
    assert resent.status_code == 200
    assert Deal.objects.get(game=game, number=3).dealer_id == third.pk
