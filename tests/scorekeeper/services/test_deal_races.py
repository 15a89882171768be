"""Two phones acting on the same deal at once answer as if one came after the other.

Issue 11, items 1 and 6: a double-submitted Undo restored the deal twice; two deletes of
one deal, an edit racing a delete and one idempotency key posted to two games at once
answered 500. The threaded tests need PostgreSQL's row locks (the second pass of .ci/run,
or DATABASE_URL); the others replay the same interleaving one step after the other, with
the object a view read before the other request went through.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal, DeletedDeal, Game
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import make_club, start_evening

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (the second pass of .ci/run)"
)

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def garde(players, taker_index: int = 0, points: str = "49") -> TarotDeal:
    seated = tuple(p.pk for p in players)
    return TarotDeal(
        seated=seated, taker=seated[taker_index], contract="garde", bouts=2, points=points
    )


def at_once(*actions: Callable[[], object]) -> tuple[list[Any], list[BaseException]]:
    """Run the actions in threads released together; their results (in order), their errors."""
    barrier = threading.Barrier(len(actions))
    results: list[Any] = [None] * len(actions)
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = actions[index]()
        except BaseException as error:  # reported by the caller
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results, errors


def _table(deals: int = 3):
    club, players = make_club()
    evening, game = start_evening(club, players)
    for index in range(deals):
        services.deal_record(game=game, inputs=garde(players, index % 4))
    return club, players, evening, game


def _record(game_id: int, inputs: TarotDeal, key: str) -> Deal:
    return services.deal_record(
        game=Game.objects.get(pk=game_id), inputs=inputs, idempotency_key=key
    )


def _client(club) -> Client:
    client = Client()
    client.force_login(club.memberships.get().user)
    return client


# --- Item 1: Undo twice ----------------------------------------------------------------------


@pytest.mark.django_db
def test_a_second_undo_of_the_same_deletion_says_the_deal_is_back_and_adds_nothing() -> None:
    club, _players, evening, game = _table()
    deleted = services.deal_delete(deal=game.deals.get(number=2))
    stale = DeletedDeal.objects.get(pk=deleted.pk)  # as the second request read it
    services.deal_restore(deleted=deleted)
    with pytest.raises(services.DealAlreadyRestored) as refused:
        services.deal_restore(deleted=stale)
    assert refused.value.deal is not None and refused.value.deal.number == 2
    assert game.deals.count() == 3
    client = _client(club)
    url = reverse("deal_restore", args=[evening.pk, deleted.pk])
    response = client.post(url, follow=True, **EN)
    assert response.status_code == 200
    assert "Deal 2 is already back." in response.text
    assert game.deals.count() == 3


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_undos_at_the_same_moment_restore_the_deal_once() -> None:
    club, _players, evening, game = _table()
    for _round in range(5):
        deleted = services.deal_delete(deal=game.deals.get(number=2))
        url = reverse("deal_restore", args=[evening.pk, deleted.pk])
        clients = [_client(club), _client(club)]
        results, errors = at_once(*(partial(c.post, url, follow=True, **EN) for c in clients))
        assert not errors, errors
        assert [r.status_code for r in results] == [200, 200]
        assert game.deals.count() == 3
        texts = sorted("is already back" in r.text for r in results)
        assert texts == [False, True]
        assert any("Deal 2 is back." in r.text for r in results)
        assert game.deals.count() == 3
        assert list(game.deals.order_by("number").values_list("number", flat=True)) == [1, 2, 3]


# --- Item 6: two deletes, an edit and a delete, one key in two games ---------------------------


@pytest.mark.django_db
def test_a_second_delete_of_a_deal_already_deleted_is_not_an_error() -> None:
    _club, _players, _evening, game = _table()
    deal = game.deals.get(number=2)
    services.deal_delete(deal=deal)
    with pytest.raises(services.DealGone):
        services.deal_delete(deal=deal)  # the object the second request had read
    assert game.deals.count() == 2
    assert DeletedDeal.objects.count() == 1


@pytest.mark.django_db
def test_an_edit_of_a_deal_deleted_meanwhile_changes_nothing_and_says_so() -> None:
    _club, players, _evening, game = _table()
    deal = game.deals.get(number=2)
    services.deal_delete(deal=deal)
    with pytest.raises(services.DealGone):
        services.deal_update(deal=deal, inputs=garde(players, 1, points="60"))
    assert game.deals.count() == 2
    assert not Deal.objects.filter(points=60).exists()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_deletes_of_one_deal_at_the_same_moment_delete_it_once() -> None:
    club, _players, evening, game = _table()
    for _round in range(3):
        deal = game.deals.get(number=1)
        url = reverse("deal_delete", args=[evening.pk, deal.pk])
        clients = [_client(club), _client(club)]
        results, errors = at_once(*(partial(c.post, url, **EN) for c in clients))
        assert not errors, errors
        # The second one found the deal gone: under the lock ("already deleted", and the
        # page where it can be restored) or, if it came later, before it (404).
        first, second = sorted(results, key=lambda r: "?undo=" not in r.get("Location", ""))
        assert first.status_code == 302 and "?undo=" in first["Location"]
        assert second.status_code == 404 or second["Location"].endswith("/deleted/")
    assert game.deals.count() == 0
    assert DeletedDeal.objects.filter(game=game).count() == 3


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_an_edit_racing_a_delete_answers_as_if_one_came_first() -> None:
    club, players, evening, game = _table()
    for _round in range(3):
        deal = game.deals.order_by("number").first()
        edit = reverse("deal_edit", args=[evening.pk, deal.pk])
        delete = reverse("deal_delete", args=[evening.pk, deal.pk])
        data = {
            "deal-dealer": deal.dealer_id,
            "deal-taker": players[1].pk,
            "deal-contract": "garde",
            "deal-bouts": "2",
            "deal-points": "60",
            "deal-points_for": "attack",
        }
        editor, deleter = _client(club), _client(club)
        results, errors = at_once(
            partial(editor.post, edit, data, **EN), partial(deleter.post, delete, **EN)
        )
        assert not errors, errors
        assert results[1].status_code == 302  # the delete, first or second
        assert results[0].status_code in (302, 404)  # the edit: saved, or the deal was gone
        assert not game.deals.filter(pk=deal.pk).exists()
        # Edited first: the deletion kept the correction; deleted first: nothing changed.
        kept = DeletedDeal.objects.filter(game=game).latest("pk").snapshot
        assert kept["points"] in ("49.0", "60.0")


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_one_idempotency_key_posted_to_two_games_at_once_stores_a_deal_in_each() -> None:
    club, players, _evening, game = _table(deals=0)
    other_club, other_players = make_club(
        club.memberships.get().user, players=["Eve", "Fay", "Gus", "Hal"], name="Autres"
    )
    _other_evening, other_game = start_evening(other_club, other_players)
    for round_ in range(5):
        key = f"same-key-{round_}"
        results, errors = at_once(
            partial(_record, game.pk, garde(players), key),
            partial(_record, other_game.pk, garde(other_players), key),
        )
        assert not errors, errors
        assert {deal.game_id for deal in results} == {game.pk, other_game.pk}
    assert game.deals.count() == 5
    assert other_game.deals.count() == 5
