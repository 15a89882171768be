"""The club figures read from stored deals: ratings, point flow, records; kept and extended."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import QuerySet
from django.test.utils import CaptureQueriesContext
from openskill.models import PlackettLuce

from scorekeeper import services
from scorekeeper.models import Deal, FiguresCheckpoint
from scorekeeper.reads import deal_facts as reads_facts
from scorekeeper.reads.club_figures import club_figures
from scorekeeper.reads.deal_facts import EveningMark, evening_facts, evening_marks
from scorekeeper.scoring.club_state import FiguresState
from scorekeeper.scoring.ratings import BETA, NEUTRAL_SIGMA, PRIOR_MU, PRIOR_SIGMA
from tests.scorekeeper.season_factories import (
    World,
    deal,
    hand_computed_season,
    make_world,
    passed,
    play_evening,
)
from tests.scoring.hand_season import deal_flow

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    world = make_world()
    hand_computed_season(world)
    return world


def replay_state(marks: list[EveningMark]) -> FiguresState:
    """The state built again from the first deal, nothing stored read."""
    facts = evening_facts(marks)
    return FiguresState().advance(deal for mark in marks for deal in facts[mark.evening_id])


def test_a_deal_s_facts_are_read_as_stored_and_l_escopette_is_left_out(world: World) -> None:
    marks = evening_marks(world.club.pk, None, None)
    read = evening_facts(marks)
    facts = [fact for mark in marks for fact in read[mark.evening_id]]
    assert len(facts) == 7  # 1 before the season, 4, 2; none of L'escopette
    ana, ben = world.players["Ana"].pk, world.players["Ben"].pk
    first = facts[1]
    assert (first.taker, first.contract, first.bouts, first.made) == (ana, "garde", 2, True)
    assert first.scores[ana] == 198
    assert facts[2].passed and not facts[2].played
    assert facts[5].attack == (ana, ben)
    assert facts[6].made is False
    assert [fact.ordinal for fact in facts] == sorted(fact.ordinal for fact in facts)


def test_the_rating_equals_openskill_called_directly_on_the_same_deals(world: World) -> None:
    state = club_figures(world.club.pk).state.ratings
    p = {name: player.pk for name, player in world.players.items()}
    model = PlackettLuce(mu=PRIOR_MU, sigma=PRIOR_SIGMA, beta=BETA)
    ratings = {pk: model.rating() for pk in p.values()}
    played = [  # (attack, defence, made), in the club's order, as hand_computed_season plays
        (["Ana"], ["Ben", "Chloé", "Dan"], True),
        (["Ana"], ["Ben", "Chloé", "Dan"], True),
        (["Ben"], ["Ana", "Chloé", "Dan"], True),
        (["Dan"], ["Ana", "Ben", "Chloé"], True),
        (["Ana", "Ben"], ["Chloé", "Dan", "Eve"], True),
        (["Chloé"], ["Ana", "Ben", "Dan", "Eve"], False),
    ]
    for attack, defence, made in played:
        size = max(len(attack), len(defence))
        teams = [
            [ratings[p[name]] for name in side]
            + [model.rating(mu=PRIOR_MU, sigma=NEUTRAL_SIGMA) for _ in range(size - len(side))]
            for side in (attack, defence)
        ]
        rated = model.rate(teams, ranks=[0, 1] if made else [1, 0])
        for side, new in zip((attack, defence), rated, strict=True):
            for name, rating in zip(side, new, strict=False):
                ratings[p[name]] = rating
    for pk, rating in ratings.items():
        mine = state.player(pk)
        assert mine.mu == pytest.approx(rating.mu, rel=1e-9)
        assert mine.sigma == pytest.approx(rating.sigma, rel=1e-9)


def test_the_point_flow_sums_to_zero_in_every_deal_and_to_each_total(world: World) -> None:
    marks = evening_marks(world.club.pk, None, None)
    read = evening_facts(marks)
    for mark in marks:
        for fact in read[mark.evening_id]:
            flows = deal_flow(fact.scores)
            assert sum(flows.values()) == sum(s for s in fact.scores.values() if s > 0)
            for player, score in fact.scores.items():
                got = sum(v for (_, payee), v in flows.items() if payee == player)
                paid = sum(v for (payer, _), v in flows.items() if payer == player)
                assert got - paid == score
    flow = club_figures(world.club.pk).state.point_flow()
    totals = {pk: 0 for pk in (player.pk for player in world.players.values())}
    for mark in marks:
        for fact in read[mark.evening_id]:
            for player, score in fact.scores.items():
                totals[player] += score
    for player, total in totals.items():
        assert sum(flow.net(player, other) for other in totals) == total


def _first_deal(world: World) -> Deal:
    return Deal.objects.filter(game__evening__club=world.club).order_by(
        "game__evening__date", "number"
    )[1]  # the season's first deal: Ana garde, 2 bouts, 49


def test_a_correction_moves_a_record_and_recomputes_the_later_ratings(world: World) -> None:
    before = club_figures(world.club.pk)
    assert before.state.records().biggest_loss.score == -760  # the chelem's defenders
    old = _first_deal(world)
    four = [world.players[name] for name in ("Ana", "Ben", "Chloé", "Dan")]
    fixed = deal(four, four[0], "garde_contre", 0, 20)  # Ana fails by far
    services.deal_update(deal=old, inputs=fixed, changed_by=world.owner)
    after = club_figures(world.club.pk)
    record = after.state.records().biggest_loss
    assert (record.deal_id, record.player) == (old.pk, four[0].pk)
    assert record.score < -760
    dan = world.players["Dan"].pk
    assert after.state.ratings.player(dan).mu != before.state.ratings.player(dan).mu
    marks = evening_marks(world.club.pk, None, None)
    again = replay_state(marks)
    assert after.state.ratings.table() == again.ratings.table()
    assert after.state.records() == again.records()


def test_a_deal_saved_tonight_reads_only_tonight_no_checkpoint_and_extends_the_kept_state(
    world: World,
) -> None:
    four = [world.players[name] for name in ("Ana", "Ben", "Chloé", "Dan")]
    tonight = play_evening(world, dt.date(2025, 6, 1), four, [deal(four, four[1], "garde", 2, 60)])
    _ = club_figures(world.club.pk).state  # folded: each part is kept in the cache
    added = services.deal_record(
        game=tonight.games.get(), inputs=deal(four, four[2], "petite", 1, 30), created_by=None
    )
    marks = evening_marks(world.club.pk, None, None)
    for part in ("ratings", "flow"):  # as their pages read them: their part alone
        with CaptureQueriesContext(connection) as captured:
            figures = club_figures(world.club.pk, part=part)
            _ = figures.state
        sql = [query["sql"] for query in captured.captured_queries]
        deals = [query for query in sql if "scorekeeper_deal" in query]
        assert len(deals) == 2  # tonight's deals' keys, then the new one with its scores
        assert f"IN ({tonight.pk})" in deals[0] and "scorekeeper_dealscore" not in deals[0]
        assert f'"scorekeeper_deal"."id" IN ({added.pk})' in deals[1]
        assert not any("scorekeeper_figurescheckpoint" in query for query in sql)  # none read
        with CaptureQueriesContext(connection) as captured:  # tonight unchanged: no deal read
            _ = club_figures(world.club.pk, part=part).state
        assert not any("scorekeeper_deal" in query["sql"] for query in captured.captured_queries)
    ratings = club_figures(world.club.pk, part="ratings").state.ratings
    assert ratings.table() == replay_state(marks).ratings.table()
    flow = club_figures(world.club.pk, part="flow").state.point_flow()
    assert flow == replay_state(marks).point_flow()


def test_a_season_s_figures_hold_only_its_evenings(world: World) -> None:
    season = world.club.seasons.get(start=dt.date(2025, 1, 1))
    figures = club_figures(world.club.pk, start=season.start, end=season.end)
    all_time = club_figures(world.club.pk)
    assert figures.deals == 6
    assert all_time.deals == 7
    assert figures.key != all_time.key


def test_a_view_reads_the_checkpoint_and_tonight_s_deals_only_and_writes_nothing(
    world: World,
) -> None:
    four = [world.players[name] for name in ("Ana", "Ben", "Chloé", "Dan")]
    latest = play_evening(world, dt.date(2025, 6, 1), four, [deal(four, four[1], "garde", 2, 60)])
    _ = club_figures(world.club.pk).state  # stores the settled evenings' checkpoints
    cache.clear()  # another server's cache: the checkpoint's state read from its row
    with CaptureQueriesContext(connection) as captured:
        figures = club_figures(world.club.pk)
        _ = figures.state
    sql = [query["sql"] for query in captured.captured_queries]
    assert len(sql) == 5  # the marks, tonight's deals' keys, the checkpoints, the state, the deals
    assert not any(query.startswith(("INSERT", "UPDATE", "DELETE")) for query in sql)
    deals = [query for query in sql if 'FROM "scorekeeper_deal" ' in query]
    assert len(deals) == 2 and f"IN ({latest.pk})" in deals[0]
    assert f"IN ({latest.games.get().deals.get().pk})" in deals[1] and "dealscore" in deals[1]
    again = replay_state(evening_marks(world.club.pk, None, None))
    assert figures.state.records() == again.records()


def test_a_correction_of_an_old_deal_drops_the_checkpoints_from_its_month_on(
    world: World,
) -> None:
    _ = club_figures(world.club.pk).state  # folded
    kept = sorted(FiguresCheckpoint.objects.values_list("through", flat=True))
    assert len(kept) >= 2  # a checkpoint a month, and one at the last settled evening
    old = _first_deal(world)
    date = old.game.evening.date
    four = [world.players[name] for name in ("Ana", "Ben", "Chloé", "Dan")]
    services.deal_update(
        deal=old, inputs=deal(four, four[0], "garde_contre", 0, 20), changed_by=world.owner
    )
    assert sorted(FiguresCheckpoint.objects.values_list("through", flat=True)) == [
        through for through in kept if through < date
    ]
    figures = club_figures(world.club.pk)
    again = replay_state(evening_marks(world.club.pk, None, None))
    assert figures.state.records() == again.records()
    assert figures.state.ratings.table() == again.ratings.table()


def test_the_ordinal_follows_date_evening_game_and_deal() -> None:
    day = dt.date(2025, 1, 1)
    assert reads_facts.ordinal(day, 9, 1, 50) < reads_facts.ordinal(day, 10, 1, 1)
    assert reads_facts.ordinal(day, 10, 1, 50) < reads_facts.ordinal(day, 10, 2, 1)
    assert reads_facts.ordinal(day, 99, 9, 9) < reads_facts.ordinal(day.replace(day=2), 1, 1, 1)


def test_passed_deals_are_in_the_facts_but_not_in_the_ratings() -> None:
    world = make_world(names=("A", "B", "C", "D"))
    four = list(world.players.values())
    play_evening(world, dt.date(2025, 1, 1), four, [passed(four), passed(four)])
    figures = club_figures(world.club.pk)
    assert figures.deals == 2
    assert figures.state.ratings.table() == []


def test_deals_saved_one_by_one_tonight_give_the_figures_of_a_replay(world: World) -> None:
    four = [world.players[name] for name in ("Ana", "Ben", "Chloé", "Dan")]
    tonight = play_evening(world, dt.date(2025, 6, 1), four, [deal(four, four[1], "garde", 2, 60)])
    game = tonight.games.get()
    for number, taker in enumerate(four):
        _ = club_figures(world.club.pk).state  # seen after each save: the next one extends it
        inputs = deal(four, taker, "petite", 1, 30 + 10 * number)
        services.deal_record(game=game, inputs=inputs, created_by=None)
    figures = club_figures(world.club.pk)
    again = replay_state(evening_marks(world.club.pk, None, None))
    assert figures.state.ratings.table() == again.ratings.table()
    assert figures.state.records() == again.records()
    assert figures.state.point_flow() == again.point_flow()
    assert figures.state.contracts == again.contracts


def test_a_deal_saved_at_the_first_of_two_tables_gives_the_figures_of_a_replay() -> None:
    world = make_world(names=("A", "B", "C", "D", "E", "F", "G", "H"))
    players = list(world.players.values())
    first, second = players[:4], players[4:]
    day = dt.date(2025, 6, 1)
    table_one = play_evening(world, day, first, [deal(first, first[0], "garde", 2, 60)])
    play_evening(world, day, second, [deal(second, second[0], "garde", 2, 60)])
    _ = club_figures(world.club.pk).state  # folded
    inputs = deal(first, first[1], "petite", 1, 30)  # table one's deal comes before table two's
    services.deal_record(game=table_one.games.get(), inputs=inputs, created_by=None)
    figures = club_figures(world.club.pk)
    again = replay_state(evening_marks(world.club.pk, None, None))
    assert figures.deals == again.deals == 3
    assert figures.state.ratings.table() == again.ratings.table()
    assert figures.state.ratings.quality == again.ratings.quality
    assert figures.state.records() == again.records()
    assert figures.state.point_flow() == again.point_flow()


def test_the_figures_query_templates_are_only_filtered_never_read_themselves(world: World) -> None:
    four = [world.players[name] for name in ("Ana", "Ben", "Chloé", "Dan")]
    tonight = play_evening(world, dt.date(2025, 6, 1), four, [deal(four, four[1], "garde", 2, 60)])
    _ = club_figures(world.club.pk).state
    inputs = deal(four, four[2], "petite", 1, 40)
    services.deal_record(game=tonight.games.get(), inputs=inputs, created_by=None)
    _ = club_figures(world.club.pk).state
    templates = [value for value in vars(reads_facts).values() if isinstance(value, QuerySet)]
    assert len(templates) >= 4
    assert all(template._result_cache is None for template in templates)  # no rows kept
