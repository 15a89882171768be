"""Two phones saving at the same moment: both deals are stored, numbered without a gap.

This needs a database with real row locks and concurrent connections: it runs in the
PostgreSQL pass of .ci/run (SQLite serialises writers itself and shares one in-memory
database between threads in tests).
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from scorekeeper import services
from scorekeeper.models import Deal, Game
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import make_club, start_evening

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (the second pass of .ci/run)"
)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_phones_saving_at_once_both_succeed_with_gapless_numbers() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    seated = tuple(p.pk for p in players)
    rounds, phones = 5, 4
    barrier = threading.Barrier(phones)
    errors: list[BaseException] = []

    def phone(index: int) -> None:
        try:
            for round_ in range(rounds):
                barrier.wait()
                services.deal_record(
                    game=Game.objects.get(pk=game.pk),
                    inputs=TarotDeal(
                        seated=seated,
                        taker=seated[index],
                        contract="garde",
                        bouts=2,
                        points="49",
                    ),
                    idempotency_key=f"phone-{index}-{round_}",
                )
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    numbers = sorted(Deal.objects.filter(game=game).values_list("number", flat=True))
    assert numbers == list(range(1, rounds * phones + 1))
    dealers = list(
        Deal.objects.filter(game=game).order_by("number").values_list("dealer__name", flat=True)
    )
    assert dealers[:4] == ["Ana", "Ben", "Chloé", "Dan"]


@pytest.mark.django_db(transaction=True)
def test_the_same_deal_sent_twice_at_once_is_stored_once() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    seated = tuple(p.pk for p in players)
    inputs = TarotDeal(seated=seated, taker=seated[0], contract="garde", bouts=2, points="49")
    services.deal_record(game=game, inputs=inputs, idempotency_key="tap")
    services.deal_record(game=game, inputs=inputs, idempotency_key="tap")
    assert Deal.objects.filter(game=game).count() == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_double_tap_arriving_at_the_same_moment_stores_one_deal() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    seated = tuple(p.pk for p in players)
    inputs = TarotDeal(seated=seated, taker=seated[0], contract="garde", bouts=2, points="49")
    barrier = threading.Barrier(2)
    stored: list[int] = []
    errors: list[BaseException] = []

    def tap() -> None:
        try:
            barrier.wait()
            deal = services.deal_record(
                game=Game.objects.get(pk=game.pk), inputs=inputs, idempotency_key="same-tap"
            )
            stored.append(deal.pk)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert len(set(stored)) == 1
    assert Deal.objects.filter(game=game).count() == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_phones_saving_the_same_deal_number_at_once_store_it_once_and_the_others_hear_why() -> None:
    """The deal-number check under real concurrency: one deal 1, every other phone gets
    DealNumberTaken."""
    club, players = make_club()
    _evening, game = start_evening(club, players)
    seated = tuple(p.pk for p in players)
    phones = 4
    barrier = threading.Barrier(phones)
    outcomes: list[object] = []

    def phone(index: int) -> None:
        try:
            barrier.wait()
            outcomes.append(
                services.deal_record(
                    game=Game.objects.get(pk=game.pk),
                    inputs=TarotDeal(
                        seated=seated, taker=seated[index], contract="garde", bouts=2, points="49"
                    ),
                    idempotency_key=f"phone-{index}",
                    expected_number=1,
                )
            )
        except BaseException as error:  # reported below
            outcomes.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    saved = [o for o in outcomes if isinstance(o, Deal)]
    taken = [o for o in outcomes if isinstance(o, services.DealNumberTaken)]
    assert len(saved) == 1 and len(taken) == phones - 1, outcomes
    assert all(t.deal.pk == saved[0].pk and t.next_number == 2 for t in taken)
    assert list(Deal.objects.filter(game=game).values_list("number", flat=True)) == [1]
