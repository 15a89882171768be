"""The owner rescoring an evening while its phones save deals: no deadlock, right scores.

Every service takes its row locks in the one order of ``scorekeeper.services`` (club, then
tournament, round, evening, game, deal). A save used to lock the game, then the evening (its
version); the rescore the evening, then the games: PostgreSQL refused one of the two with
"deadlock detected". This needs real row locks and concurrent connections: it runs in the
PostgreSQL pass of .ci/run and is skipped on SQLite, which serialises writers itself.
"""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.db import connection, connections

from scorekeeper import services
from scorekeeper.models import Deal, Evening, Game, stored_inputs
from scorekeeper.scoring.rules import FFT_RULES, HouseRules
from scorekeeper.scoring.tarot import TarotDeal, score_deal
from tests.factories import make_club, start_evening

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (the second pass of .ci/run)"
)

HOUSE = HouseRules(multipliers="classic", poignees="20-40-60", misere=10)


def _inputs(seated: tuple[int, ...], n: int) -> TarotDeal[int]:
    return TarotDeal(
        seated=seated,
        taker=seated[n % len(seated)],
        contract="garde_contre" if n % 2 else "garde",
        bouts=n % 4,
        points=Decimal(30 + n % 40),
        poignees=("simple",) if n % 3 == 0 else (),
    )


def _run(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_rescore_and_many_saves_at_once_never_deadlock_and_every_deal_ends_rightly_scored() -> (
    None
):
    club, players = make_club()
    evening, game = start_evening(club, players)
    seated = tuple(p.pk for p in players)
    for n in range(40):  # a rescore with work to do, holding its locks a while
        services.deal_record(game=game, inputs=_inputs(seated, n))
    phones, saves, rescores = 4, 15, 12
    errors: list[BaseException] = []
    start = threading.Barrier(phones + 1)

    def phone(index: int) -> None:
        try:
            start.wait()
            for n in range(saves):
                services.deal_record(
                    game=Game.objects.get(pk=game.pk),
                    inputs=_inputs(seated, index * saves + n),
                    idempotency_key=f"phone-{index}-{n}",
                )
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    def owner() -> None:
        try:
            start.wait()
            for n in range(rescores):
                services.evening_rescore(
                    evening=Evening.objects.get(pk=evening.pk),
                    rules=HOUSE if n % 2 == 0 else FFT_RULES,
                )
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    _run(
        [threading.Thread(target=phone, args=(i,)) for i in range(phones)]
        + [threading.Thread(target=owner)]
    )

    assert not errors, [str(error) for error in errors]
    evening.refresh_from_db()
    assert evening.house_rules == FFT_RULES  # the last rescore's rules
    deals = list(Deal.objects.filter(game=game).prefetch_related("scores"))
    assert len(deals) == 40 + phones * saves
    for deal in deals:
        rows = deal.scores.all()
        inputs = stored_inputs(deal, game.kind)
        assert {r.player_id: r.score for r in rows if r.seated} == score_deal(
            inputs, evening.house_rules
        ), deal.number
