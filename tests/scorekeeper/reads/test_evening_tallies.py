"""Each evening's figures stored under its version: read again only once a deal changed it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest

from scorekeeper import services
from scorekeeper.models import EveningTally
from scorekeeper.reads import evening_tallies
from scorekeeper.reads.evening_tallies import evening_refs, evening_summaries
from scorekeeper.reads.tallies import TAROT, EveningSummary
from scorekeeper.server import shared_cache
from tests.scorekeeper.season_factories import World, deal, fresh_memory, make_world, play_evening

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    yield from fresh_memory()


@pytest.fixture
def world() -> World:
    world = make_world()
    table = list(world.players.values())[:4]
    for day, taker in ((10, table[0]), (3, table[1])):
        play_evening(world, dt.date(2025, 1, day), table, [deal(table, taker, "garde", 2, 45)])
    return world


def totals(summary: EveningSummary) -> list[int]:
    return sorted(tally.total for tally in summary.tallies.values())


def test_a_clubs_evenings_come_in_date_order_within_the_range(
    world: World, django_assert_num_queries
) -> None:
    with django_assert_num_queries(1):
        refs = evening_refs(world.club)
    assert [ref.date for ref in refs] == [dt.date(2025, 1, 3), dt.date(2025, 1, 10)]
    assert [r.date for r in evening_refs(world.club.pk, start=dt.date(2025, 1, 4))] == [
        dt.date(2025, 1, 10)
    ]
    assert evening_refs(world.club, end=dt.date(2025, 1, 2)) == []


def test_figures_aggregated_once_are_stored_under_the_evenings_version(world: World) -> None:
    refs = evening_refs(world.club)
    first = evening_summaries(refs, TAROT)
    assert [totals(s) for s in first] == [[-58, -58, -58, 174]] * 2
    stored = dict(EveningTally.objects.filter(kind=TAROT).values_list("evening_id", "version"))
    assert stored == {ref.evening_id: ref.version for ref in refs}


def test_another_process_reads_the_stored_figures_in_one_query(
    world: World, django_assert_num_queries
) -> None:
    refs = evening_refs(world.club)
    first = evening_summaries(refs, TAROT)
    shared_cache.forget_local()  # a restart: no copy in memory
    with django_assert_num_queries(1):
        again = evening_summaries(refs, TAROT)
    assert again == first
    with django_assert_num_queries(0):  # this process's copies now
        assert evening_summaries(refs, TAROT) == first


def test_a_new_deal_has_only_its_evening_aggregated_again(
    world: World, django_assert_num_queries
) -> None:
    refs = evening_refs(world.club)
    evening_summaries(refs, TAROT)
    later = refs[1]
    game = world.club.evenings.get(pk=later.evening_id).games.get()
    table = [seat.player for seat in game.seats.order_by("position")]
    services.deal_record(game=game, inputs=deal(table, table[2], "petite", 0, 60))
    refs = evening_refs(world.club)
    assert refs[1].version != later.version
    # The other evening from this process's copy; this one: its stale row, aggregated, stored.
    with django_assert_num_queries(3):
        summaries = evening_summaries(refs, TAROT)
    assert totals(summaries[0]) == [-58, -58, -58, 174]
    assert sum(totals(summaries[1])) == 0 and totals(summaries[1]) != [-58, -58, -58, 174]
    assert EveningTally.objects.get(evening_id=refs[1].evening_id).version == refs[1].version


def test_stored_figures_read_back_as_they_were_written(world: World) -> None:
    refs = evening_refs(world.club)
    summary = evening_summaries(refs, TAROT)[0]
    encoded = evening_tallies._encode(summary)
    assert evening_tallies._decode(encoded) == summary.tallies
