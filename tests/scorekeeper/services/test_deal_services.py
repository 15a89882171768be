from __future__ import annotations

import pytest

from scorekeeper import services
from scorekeeper.models import Deal, DealScore, Game
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal
from tests.factories import NAMES, make_club, start_evening

pytestmark = pytest.mark.django_db


def garde(seated, taker, points="49", bouts=2, **extra) -> TarotDeal:
    return TarotDeal(
        seated=tuple(p.pk for p in seated),
        taker=taker.pk,
        contract="garde",
        bouts=bouts,
        points=points,
        **extra,
    )


def scores_of(deal: Deal) -> dict[str, int]:
    return {s.player.name: s.score for s in deal.scores.select_related("player")}


def test_a_recorded_deal_stores_each_players_score_from_the_scoring_service() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    deal = services.deal_record(game=game, inputs=garde(players, players[0]))
    assert deal.number == 1
    assert scores_of(deal) == {"Ana": 198, "Ben": -66, "Chloé": -66, "Dan": -66}


def test_the_deal_passes_to_the_next_player_in_seat_order() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    dealers = []
    for _ in range(5):
        deal = services.deal_record(
            game=game, inputs=PassedDeal(seated=tuple(p.pk for p in players))
        )
        dealers.append(deal.dealer.name)
    assert dealers == ["Ana", "Ben", "Chloé", "Dan", "Ana"]


def test_with_six_present_the_dealer_sits_out_and_scores_zero() -> None:
    club, players = make_club(players=NAMES)
    _evening, game = start_evening(club, players)
    dealer = services.next_dealer(game)
    out = services.default_sitting_out(game, players, dealer)
    assert out == [dealer]
    seated = [p for p in players if p not in out]
    deal = services.deal_record(game=game, inputs=garde(seated, players[1], partner=players[2].pk))
    assert scores_of(deal)[dealer.name] == 0
    assert DealScore.objects.get(deal=deal, player=dealer).seated is False
    assert sum(scores_of(deal).values()) == 0


def test_with_five_present_the_table_may_play_four_with_the_dealer_out() -> None:
    club, players = make_club(players=NAMES[:5])
    _evening, game = start_evening(club, players, five_mode=Game.FiveMode.FOUR)
    dealer = services.next_dealer(game)
    assert services.default_sitting_out(game, players, dealer) == [dealer]
    _evening, five = start_evening(club, players)
    assert services.default_sitting_out(five, players, services.next_dealer(five)) == []


def test_an_invalid_deal_raises_and_saves_nothing() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    with pytest.raises(ScoringError) as error:
        services.deal_record(game=game, inputs=garde(players, players[0], points="93"))
    assert error.value.field == "points"
    assert not Deal.objects.exists()


def test_the_same_idempotency_key_stores_one_deal() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    first = services.deal_record(game=game, inputs=garde(players, players[0]), idempotency_key="k1")
    second = services.deal_record(
        game=game, inputs=garde(players, players[0]), idempotency_key="k1"
    )
    assert first.pk == second.pk
    assert Deal.objects.count() == 1


def test_editing_a_deal_rescored_it_and_the_totals_follow() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    deal = services.deal_record(game=game, inputs=garde(players, players[0]))
    services.deal_update(deal=deal, inputs=garde(players, players[1], points="40.5"))
    assert scores_of(deal) == {"Ana": 52, "Ben": -156, "Chloé": 52, "Dan": 52}


def test_deleting_a_deal_renumbers_the_later_ones_and_undo_puts_it_back() -> None:
    club, players = make_club()
    _evening, game = start_evening(club, players)
    deals = [services.deal_record(game=game, inputs=garde(players, taker)) for taker in players[:3]]
    deleted = services.deal_delete(deal=deals[1])
    assert list(game.deals.values_list("number", "taker__name")) == [(1, "Ana"), (2, "Chloé")]
    restored = services.deal_restore(deleted=deleted)
    assert restored.number == 2
    assert list(game.deals.values_list("number", "taker__name")) == [
        (1, "Ana"),
        (2, "Ben"),
        (3, "Chloé"),
    ]
    assert scores_of(restored)["Ben"] == 198
    assert restored.dealer == deals[1].dealer


def test_a_closed_evening_refuses_deals_until_reopened() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    services.evening_close(evening=evening)
    with pytest.raises(services.ServiceError):
        services.deal_record(game=game, inputs=garde(players, players[0]))
    services.evening_reopen(evening=evening)
    assert services.deal_record(game=game, inputs=garde(players, players[0])).number == 1


def test_a_player_can_join_and_leave_mid_evening() -> None:
    club, players = make_club(players=NAMES[:5])
    _evening, game = start_evening(club, players[:4])
    services.seat_join(game=game, player=players[4], after=players[1])
    assert [p.name for p in services.present_players(game)] == ["Ana", "Ben", "Eve", "Chloé", "Dan"]
    services.seat_leave(game=game, player=players[0])
    assert [p.name for p in services.present_players(game)] == ["Ben", "Eve", "Chloé", "Dan"]
    with pytest.raises(services.ServiceError):
        services.seat_leave(game=game, player=players[0])


def test_every_change_bumps_the_evening_version() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    before = type(evening).objects.get(pk=evening.pk).version
    deal = services.deal_record(game=game, inputs=garde(players, players[0]))
    services.deal_delete(deal=deal)
    after = type(evening).objects.get(pk=evening.pk).version
    assert after == before + 2


def test_removing_a_member_unlinks_their_player_but_keeps_it() -> None:
    from tests.factories import make_member

    club, players = make_club()
    member = make_member(club)
    services.player_update(player=players[1], name="Ben", user=member)
    services.member_remove(membership=club.memberships.get(user=member))
    players[1].refresh_from_db()
    assert players[1].user is None
    assert players[1].name == "Ben"


def test_an_evening_in_a_year_without_a_season_creates_that_years() -> None:
    import datetime as dt

    club, players = make_club()
    start_evening(club, players, date=dt.date(2031, 5, 1))
    assert club.seasons.filter(start=dt.date(2031, 1, 1), end=dt.date(2031, 12, 31)).exists()
