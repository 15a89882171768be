"""A deal saved tonight: the standings add tonight's evening to the kept sums of the others,
and give exactly what adding every evening up from the first gives."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper import services
from scorekeeper.models import Evening, EveningTally, Player
from scorekeeper.reads import periods, standings
from scorekeeper.reads.tallies import ESCOPETTE, TAROT, EveningRef, EveningSummary, Tally
from scorekeeper.server import shared_cache
from tests.scorekeeper.season_factories import (
    World,
    deal,
    escopette_evening,
    fresh_memory,
    hand_computed_season,
    make_world,
    play_evening,
)

pytestmark = pytest.mark.django_db

TONIGHT = dt.date(2025, 3, 8)  # after every evening of the hand-computed season


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    yield from fresh_memory()


@pytest.fixture
def world() -> World:
    world = make_world()
    hand_computed_season(world)
    return world


def everything(world: World) -> dict[str, standings.SeasonStats]:
    return standings.season_stats_by_kind(world.club)


def from_the_first_evening(world: World) -> dict[str, standings.SeasonStats]:
    """The same figures with nothing kept: every evening added up again."""
    periods.clear_memo()
    EveningTally.objects.all().delete()
    return everything(world)


def same(kept: standings.SeasonStats, again: standings.SeasonStats) -> None:
    assert kept.rows == again.rows
    assert list(kept.points.items()) == list(again.points.items())
    assert kept.evenings == again.evenings
    assert (kept.deals, kept.games, kept.unreplayable) == (
        again.deals,
        again.games,
        again.unreplayable,
    )


def test_deals_saved_one_by_one_tonight_give_the_standings_of_every_evening_added_up(
    world: World,
) -> None:
    four = [world.players[name] for name in ("Ana", "Ben", "Chloé", "Dan")]
    tonight = play_evening(world, TONIGHT, four, [deal(four, four[0], "garde", 2, 50)])
    game = tonight.games.get()
    for number, taker in enumerate(four):
        everything(world)  # seen after each save: the next one adds tonight's evening only
        inputs = deal(four, taker, "petite", 1, 30 + 10 * number, poignees=("simple",))
        services.deal_record(game=game, inputs=inputs, created_by=None)
    kept = everything(world)
    again = from_the_first_evening(world)
    for kind in (TAROT, ESCOPETTE):
        same(kept[kind], again[kind])


def test_a_deal_saved_tonight_aggregates_tonight_only_and_writes_nothing(world: World) -> None:
    four = [world.players[name] for name in ("Ana", "Ben", "Chloé", "Dan")]
    tonight = play_evening(world, TONIGHT, four, [deal(four, four[0], "garde", 2, 50)])
    everything(world)
    saved = services.deal_record(
        game=tonight.games.get(), inputs=deal(four, four[1], "garde", 1, 60), created_by=None
    )
    with CaptureQueriesContext(connection) as captured:
        figures = everything(world)[TAROT]
    sql = [query["sql"] for query in captured.captured_queries]
    assert len(sql) == 3  # what changed, tonight's scores, the names
    scores = [query for query in sql if "scorekeeper_dealscore" in query]
    assert len(scores) == 1 and f'"evening_id" = {saved.game.evening_id}' in scores[0]
    assert not any(query.startswith(("INSERT", "UPDATE")) for query in sql)
    assert sum(row.total for row in figures.rows) == 0


def test_two_tables_tonight_and_a_game_of_lescopette_come_out_the_same(world: World) -> None:
    p = world.players
    four = [p["Ana"], p["Ben"], p["Chloé"], p["Dan"]]
    other = [p["Eve"], p["Ana"], p["Ben"], p["Dan"]]
    first = play_evening(world, TONIGHT, four, [deal(four, four[0], "garde", 2, 50)])
    everything(world)
    second = play_evening(world, TONIGHT, other, [deal(other, other[0], "petite", 1, 45)])
    everything(world)
    escopette_evening(world, TONIGHT, four)
    everything(world)
    for game, table in ((first.games.get(), four), (second.games.get(), other)):
        services.deal_record(game=game, inputs=deal(table, table[2], "garde", 0, 60))
        everything(world)
    kept = everything(world)
    again = from_the_first_evening(world)
    for kind in (TAROT, ESCOPETTE):
        same(kept[kind], again[kind])
    assert len(kept[TAROT].evenings) == 5


def test_a_correction_of_an_old_evening_or_a_new_night_adds_up_again(world: World) -> None:
    four = [world.players[name] for name in ("Ana", "Ben", "Chloé", "Dan")]
    play_evening(world, TONIGHT, four, [deal(four, four[0], "garde", 2, 50)])
    everything(world)
    old = world.club.evenings.get(date="2025-01-10").games.get().deals.order_by("number").first()
    services.deal_update(deal=old, inputs=deal(four, four[3], "garde_sans", 3, 70))
    kept = everything(world)
    same(kept[TAROT], from_the_first_evening(world)[TAROT])
    everything(world)
    play_evening(
        world, TONIGHT + dt.timedelta(days=7), four, [deal(four, four[1], "petite", 1, 41)]
    )
    kept = everything(world)
    same(kept[TAROT], from_the_first_evening(world)[TAROT])


def test_tonight_copies_the_tallies_of_tonights_players_only_and_leaves_the_kept_ones() -> None:
    ana, ben = Tally(total=10, deals=2), Tally(total=-10, deals=2)
    base = periods.Period("settled", (), {1: ana, 2: ben}, {1: 1, 2: 1}, {}, 2)
    tonight = EveningRef(7, TONIGHT, "", dt.datetime(2025, 3, 8, 20, tzinfo=dt.UTC), 1)
    summary = EveningSummary({1: Tally(total=5, deals=1), 3: Tally(total=-5, deals=1)}, 1)
    period = periods._extend("tonight", base, [tonight], [summary])
    assert (period.tallies[1].total, period.tallies[3].total) == (15, -5)
    assert period.tallies[2] is ben  # not played tonight: the kept tally, shared
    assert (ana.total, ana.deals, base.tallies) == (10, 2, {1: ana, 2: ben})
    assert period.played_evenings == {1: 2, 2: 1, 3: 1} and period.played == 3


def test_in_blocks_a_correction_adds_up_its_block_again_and_gives_the_same_figures(
    world: World, monkeypatch
) -> None:
    monkeypatch.setattr(periods, "BLOCK", 2)  # the season's 4 evenings: 2 blocks, tonight apart
    four = [world.players[name] for name in ("Ana", "Ben", "Chloé", "Dan")]
    play_evening(world, TONIGHT, four, [deal(four, four[0], "garde", 2, 50)])
    first = everything(world)
    same(first[TAROT], from_the_first_evening(world)[TAROT])
    everything(world)
    asked: list[tuple[str, list[dt.date]]] = []
    read = periods.evening_summaries

    def evening_summaries(refs, kind=TAROT, **options):
        asked.append((kind, [ref.date for ref in refs]))
        return read(refs, kind, **options)

    monkeypatch.setattr(periods, "evening_summaries", evening_summaries)
    old = world.club.evenings.get(date="2025-02-07").games.get().deals.order_by("number").first()
    services.deal_update(deal=old, inputs=deal(four, four[3], "garde_sans", 3, 70))
    kept = everything(world)
    tarot = [dates for kind, dates in asked if kind == TAROT]
    # The block of 7 February (with 1 March's) and tonight: not 31 December nor 10 January.
    assert tarot == [[dt.date(2025, 2, 7), dt.date(2025, 3, 1), TONIGHT]]
    again = from_the_first_evening(world)
    for kind in (TAROT, ESCOPETTE):
        same(kept[kind], again[kind])


def _seatings(world: World) -> list[list[Player]]:
    p = world.players
    return [
        [p["Ana"], p["Ben"], p["Chloé"], p["Dan"]],
        [p["Eve"], p["Ana"], p["Ben"], p["Dan"]],
        [p["Chloé"], p["Dan"], p["Eve"], p["Ana"]],
        [p["Ben"], p["Chloé"], p["Dan"], p["Eve"]],
        [p["Dan"], p["Eve"], p["Ana"], p["Ben"]],
    ]


def _club_night(world: World, seatings: list[list[Player]]) -> list[Evening]:
    """A table per seating tonight, one deal each, and the standings seen."""
    tables = [
        play_evening(world, TONIGHT, four, [deal(four, four[0], "garde", 2, 50)])
        for four in seatings
    ]
    everything(world)
    return tables


def test_a_club_night_of_many_tables_adds_up_the_changed_tables_block_only(
    world: World, monkeypatch
) -> None:
    monkeypatch.setattr(periods, "BLOCK", 2)  # tonight's 5 tables: 3 blocks
    seatings = _seatings(world)
    tables = _club_night(world, seatings)
    asked: list[list[int]] = []
    read = periods.evening_summaries

    def evening_summaries(refs, kind=TAROT, **options):
        if kind == TAROT:
            asked.append([ref.evening_id for ref in refs])
        return read(refs, kind, **options)

    monkeypatch.setattr(periods, "evening_summaries", evening_summaries)
    for number, index in enumerate((3, 0, 4, 3)):
        four = seatings[index]
        inputs = deal(four, four[number % 4], "petite", 1, 35 + 5 * number)
        services.deal_record(game=tables[index].games.get(), inputs=inputs, created_by=None)
        asked.clear()
        kept = everything(world)
        block = index // 2 * 2  # the changed table's block: itself and its neighbour
        assert asked == [[table.pk for table in tables[block : block + 2]]]
        same(kept[TAROT], from_the_first_evening(world)[TAROT])
        everything(world)  # kept again for the next save, as a club night goes
    assert len(kept[TAROT].evenings) == 3 + 5  # the season's Tarot evenings and tonight's tables


def test_another_process_adds_tonights_tables_from_the_blocks_in_the_shared_cache(
    world: World, monkeypatch
) -> None:
    monkeypatch.setattr(periods, "BLOCK", 2)
    seatings = _seatings(world)
    tables = _club_night(world, seatings)
    four = seatings[2]
    services.deal_record(
        game=tables[2].games.get(), inputs=deal(four, four[1], "petite", 1, 40), created_by=None
    )
    seen = everything(world)
    shared_cache.forget_local()  # another worker: its memory empty, the shared cache there
    asked: list[list[int]] = []
    read = periods.evening_summaries

    def evening_summaries(refs, kind=TAROT, **options):
        asked.append([ref.evening_id for ref in refs])
        return read(refs, kind, **options)

    monkeypatch.setattr(periods, "evening_summaries", evening_summaries)
    again = everything(world)
    assert asked == []  # no evening aggregated nor read again
    same(again[TAROT], seen[TAROT])
    same(again[TAROT], from_the_first_evening(world)[TAROT])
