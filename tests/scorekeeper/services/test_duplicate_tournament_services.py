from __future__ import annotations

import pytest
from django.utils import translation

from scorekeeper import services
from scorekeeper.models import Deal, Tournament, TournamentTable
from scorekeeper.scoring.duplicate import Movement
from scorekeeper.scoring.tarot import TarotDeal
from scorekeeper.services import ServiceError
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_english():
    with translation.override("en"):  # the refusals are read in English here
        yield


def _owner(tournament: Tournament):
    return tournament.club.memberships.get(role="owner").user


def _start(tournament: Tournament):
    return services.round_start(tournament=tournament, created_by=_owner(tournament))


def _deal(table: TournamentTable, case: int | None, **kwargs) -> Deal:
    seated = tuple(table.game.seats.order_by("position").values_list("player_id", flat=True))
    inputs = TarotDeal(seated=seated, taker=seated[0], contract="garde", bouts=2, points=50)
    return services.deal_record(game=table.game, inputs=inputs, case_number=case, **kwargs)


def test_a_duplicate_tournament_keeps_its_kind_and_method_and_refuses_tables_of_three() -> None:
    _club, _players, free = make_tournament(12)
    tournament = services.tournament_create(
        club=free.club,
        created_by=_owner(free),
        name="Duplicate",
        rounds=3,
        deals_per_round=2,
        kind="duplicate",
        method="mean",
        allow_three=True,
    )
    assert (tournament.kind, tournament.method, tournament.allow_three) == (
        "duplicate",
        "mean",
        False,
    )
    with pytest.raises(ServiceError) as refused:
        services.tournament_create(
            club=free.club,
            created_by=_owner(free),
            name="Odd",
            rounds=3,
            deals_per_round=2,
            kind="howell",
        )
    assert refused.value.field == "kind"


def test_the_first_round_draws_the_movement_and_every_round_follows_it() -> None:
    _club, _players, tournament = make_tournament(24, rounds=6, deals=1, kind="duplicate")
    first = _start(tournament)
    tournament.refresh_from_db()
    movement = Movement.from_json(tournament.schedule["movement"])
    entrants = dict(tournament.entrants.values_list("pk", "player_id"))
    order = [entrants[pk] for pk in tournament.schedule["players"]]
    assert sorted(order) == sorted(entrants.values()) and movement.tables == 6
    for number in range(1, 7):
        started = first if number == 1 else _start(tournament)
        tables = list(started.tables.order_by("number"))
        assert len(tables) == 6
        for index, table in enumerate(tables):
            seats = list(table.game.seats.order_by("position").values_list("player_id", flat=True))
            assert seats == [order[i] for i in movement.seating[number - 1][index]]
            assert table.game.first_dealer_id == seats[0]
        services.round_close(tournament_round=started, even_short=True)


def test_players_left_over_sit_out_and_too_few_players_are_refused_in_words() -> None:
    _club, _players, tournament = make_tournament(14, rounds=3, deals=1, kind="duplicate")
    started = _start(tournament)
    seated = {p for t in started.tables.all() for p in t.game.seats.values_list("player_id")}
    assert started.tables.count() == 3 and len(seated) == 12
    _club, _players, small = make_tournament(11, rounds=3, kind="duplicate", email="b@example.com")
    with pytest.raises(ServiceError) as refused:
        _start(small)
    assert refused.value.field == "players" and "12 to 60 players" in refused.value.message
    assert not small.tournament_rounds.exists()


def test_a_later_round_is_refused_when_players_came_or_went() -> None:
    _club, _players, tournament = make_tournament(12, rounds=3, deals=1, kind="duplicate")
    services.round_close(tournament_round=_start(tournament), even_short=True)
    services.tournament_withdraw(entrant=tournament.entrants.first())
    with pytest.raises(ServiceError) as refused:
        _start(tournament)
    assert "keeps the players of its first round" in refused.value.message
    with pytest.raises(ServiceError):
        services.tournament_schedule_search(tournament=tournament, by=_owner(tournament))


def test_a_deal_carries_one_of_its_tables_cases_not_yet_played_there() -> None:
    _club, _players, tournament = make_tournament(12, rounds=3, deals=2, kind="duplicate")
    started = _start(tournament)
    tournament.refresh_from_db()
    table = started.tables.get(number=2)
    cases = Movement.from_json(tournament.schedule["movement"]).cases(0, 1)
    assert services.table_cases(table.game).cases == cases
    other = next(case for case in range(1, 20) if case not in cases)
    for wrong in (None, other):
        with pytest.raises(ServiceError) as refused:
            _deal(table, wrong)
        assert refused.value.field == "case_number"
    assert _deal(table, cases[1]).case_number == cases[1]
    with pytest.raises(ServiceError) as again:
        _deal(table, cases[1])
    assert "entered at this table already" in again.value.message
    assert list(table.game.deals.values_list("case_number", flat=True)) == [cases[1]]
    assert services.table_cases(table.game).next_case == cases[0]


def test_a_free_tournament_table_stores_no_case() -> None:
    _club, _players, tournament = make_tournament(8, rounds=2, deals=2)
    table = _start(tournament).tables.first()
    assert services.table_cases(table.game) is None
    assert _deal(table, 3).case_number is None
