"""Tonight's evening just after a deal saved: its figures are those of the version before
with that deal added (one query for its scores), exactly what aggregating the evening whole
gives; any other change, or figures not known to be exactly the version before's, read the
evening whole."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from scorekeeper import services
from scorekeeper.models import DeletedDeal, Evening
from scorekeeper.reads import evening_tallies
from scorekeeper.reads.nights import nights
from scorekeeper.reads.tallies import TAROT, EveningRef, EveningSummary, aggregate
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.scoring.rules import HouseRules
from scorekeeper.server import shared_cache
from tests.scorekeeper.season_factories import (
    TONIGHT,
    deal,
    fresh_memory,
    second_table,
    stakes,
    tonight,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    yield from fresh_memory()


def ref_of(evening: Evening) -> EveningRef:
    """Tonight's evening as the season reads it after a save (its fingerprint's one query)."""
    (ref,) = evening_tallies.night_refs(evening.club_id, TONIGHT)
    return ref


def read(ref: EveningRef) -> tuple[EveningSummary, bool]:
    """Tonight's figures as the season view reads them, and whether only the saved deal's
    scores were read for them (one query), rather than the evening's (at the end)."""
    with CaptureQueriesContext(connection) as captured:
        (summary,) = evening_tallies.evening_summaries([ref], TAROT, store=False)
    scores = [q["sql"] for q in captured.captured_queries if "scorekeeper_dealscore" in q["sql"]]
    added = scores == [s for s in scores if f'"deal_id" = {ref.added_deal}' in s]
    assert added or f'"evening_id" = {ref.evening_id}' in scores[-1]
    return summary, added and len(scores) == 1


def whole(ref: EveningRef) -> EveningSummary:
    """The evening aggregated from every one of its scores (the aggregation keeps nothing)."""
    return aggregate([ref], TAROT)[ref.evening_id]


def test_each_deal_saved_tonight_is_added_to_the_figures_of_the_version_before() -> None:
    night = tonight()
    evening, game, five = night.evening, night.game, night.five
    a, b, c, d, e = five
    shapes = [
        deal(five, c, "petite", 1, 40, partner=c),  # called himself: alone against four
        deal(five, d, "garde_sans", 2, 60, partner=e, petit_au_bout="defense"),
        deal(five, b, "petite", 0, 30, partner=a, poignees=("simple",)),
        PaperDeal(
            seated=tuple(p.pk for p in five),
            scores={a.pk: 120, b.pk: -30, c.pk: -30, d.pk: -30, e.pk: -30},
        ),
        deal(five, e, "garde_contre", 3, 91, partner=d, chelem="announced"),
        deal(five, a, "garde", 2, 30, partner=c, petit_au_bout="attack"),
    ]
    summary, added = read(ref_of(evening))
    assert not added  # nothing kept yet: the evening is read whole, at its version
    assert summary == whole(ref_of(evening))
    for inputs in shapes:
        saved = services.deal_record(game=game, inputs=inputs)
        ref = ref_of(evening)
        assert ref.added_deal == saved.pk
        summary, added = read(ref)
        assert added
        assert summary == whole(ref)
        assert summary.version == ref.version
    assert summary.played == 6  # a paper deal counts in the totals, not as a deal played


def test_a_deal_of_lescopette_tonight_leaves_the_tarot_figures_as_they_were() -> None:
    night = tonight()
    evening, (a, b, c, d, _e) = night.evening, night.five
    escopette = services.game_start(
        evening=evening, players=[a, b, c, d], first_dealer=a, kind="escopette", target=100
    )
    before, _added = read(ref_of(evening))
    won = stakes({a: [1, 2, 3, 4, 5], b: [6, 7, 12, 20]})
    services.deal_record(game=escopette, inputs=won)
    summary, added = read(ref_of(evening))
    assert added
    assert summary == before == whole(ref_of(evening))


def test_any_other_change_reads_tonights_evening_whole() -> None:
    night = tonight()
    evening, game, five, kept = night.evening, night.game, night.five, night.first
    a, b, c, *_ = five
    read(ref_of(evening))
    changes = [
        lambda: services.deal_update(deal=kept, inputs=deal(five, a, "garde", 2, 40, partner=c)),
        lambda: services.deal_delete(deal=kept),
        lambda: services.deal_restore(deleted=DeletedDeal.objects.get()),
        lambda: services.evening_rescore(evening=evening, rules=HouseRules(multipliers="classic")),
        lambda: services.player_rename(player=a, name="Anaïs"),
    ]
    for change in changes:
        services.deal_record(game=game, inputs=deal(five, b, "petite", 1, 45, partner=a))
        read(ref_of(evening))  # the saved deal added: exact figures of that version kept
        change()
        ref = ref_of(evening)
        assert ref.added_deal is None
        summary, added = read(ref)
        assert not added
        assert summary == whole(ref)


def test_figures_read_at_a_later_version_than_they_are_named_by_are_never_added_to() -> None:
    """A season that read tonight's version, then the evening whole after another phone
    saved a deal, names figures holding that deal by the version before it."""
    night = tonight()
    evening, game, five = night.evening, night.game, night.five
    a, b, *_ = five
    stale = ref_of(evening)
    services.deal_record(game=game, inputs=deal(five, b, "garde", 2, 70, partner=a))
    named_before, _added = read(stale)  # holds the second deal, named by the version before
    assert named_before.tallies[b.pk].takes == 1
    ref = ref_of(evening)
    summary, added = read(ref)
    assert not added  # the second deal is not added again to figures that hold it
    assert summary == whole(ref)
    assert summary.tallies[b.pk].takes == 1


def test_a_deal_changed_or_gone_since_the_version_read_reads_the_evening_whole() -> None:
    night = tonight()
    evening, game, five, first = night.evening, night.game, night.five, night.first
    a, b, c, *_ = five
    read(ref_of(evening))
    services.deal_record(game=game, inputs=deal(five, b, "garde", 2, 70, partner=c))
    seen = ref_of(evening)  # the fingerprint says: that deal added
    services.deal_delete(deal=first)  # then another phone deletes the first deal
    summary, added = read(seen)
    assert not added
    assert summary == whole(seen) and summary.tallies[a.pk].takes == 0

    read(ref_of(evening))
    second = services.deal_record(game=game, inputs=deal(five, c, "petite", 1, 45, partner=a))
    seen = ref_of(evening)
    services.deal_delete(deal=second)  # the deal itself gone before the season read it
    summary, added = read(seen)
    assert not added
    assert summary == whole(seen) and summary.tallies[c.pk].takes == 0


def test_only_a_deal_saved_names_itself_as_the_evenings_change() -> None:
    night = tonight()
    evening = night.evening
    assert Evening.objects.get(pk=evening.pk).added_deal == night.first.pk
    services.evening_update(evening=evening, date=TONIGHT, place="Le Cercle")
    assert Evening.objects.get(pk=evening.pk).added_deal is None


def test_a_version_raised_since_the_deal_was_saved_names_no_deal() -> None:
    """A bump that leaves the saved deal's marker as it was (the version raised alone, as a
    change that forgot the marker would) names no deal: the deal already in the figures of
    the version before is not added again, the evening is read whole."""
    night = tonight()
    evening, game, five = night.evening, night.game, night.five
    a, b, *_ = five
    saved = services.deal_record(game=game, inputs=deal(five, b, "garde", 2, 70, partner=a))
    assert nights(evening.club_id, TONIGHT, TONIGHT).tonight.added == saved.pk
    assert Evening.objects.get(pk=evening.pk).deal_added_now == saved.pk
    kept, _added = read(ref_of(evening))  # the figures of the deal's version, kept
    Evening.objects.filter(pk=evening.pk).update(version=F("version") + 1)
    assert Evening.objects.get(pk=evening.pk).added_deal == saved.pk  # left as it was
    assert Evening.objects.get(pk=evening.pk).deal_added_now is None
    assert nights(evening.club_id, TONIGHT, TONIGHT).tonight.added is None
    ref = ref_of(evening)
    assert ref.added_deal is None
    summary, added = read(ref)
    assert not added
    assert summary == whole(ref) == kept
    assert summary.tallies[b.pk].takes == 1


def test_another_process_takes_tonights_figures_from_the_shared_cache() -> None:
    """Another worker (or a restarted one) showing the season next reads no score of the
    evenings a process has read since: their figures at their versions are in the shared
    cache; after a deal saved, the version before's figures there get that deal added."""
    night = tonight()
    evening, game, five = night.evening, night.game, night.five
    a, b, *_ = five
    read(ref_of(evening))
    shared_cache.forget_local()  # another process: nothing of this one's memory
    ref = ref_of(evening)
    with CaptureQueriesContext(connection) as captured:
        (summary,) = evening_tallies.evening_summaries([ref], TAROT, store=False)
    assert not any("scorekeeper_dealscore" in q["sql"] for q in captured.captured_queries)
    assert summary == whole(ref)

    services.deal_record(game=game, inputs=deal(five, b, "garde", 2, 70, partner=a))
    shared_cache.forget_local()
    ref = ref_of(evening)
    summary, added = read(ref)
    assert added  # the version before's figures, from the shared cache, and the deal's scores
    assert summary == whole(ref) and summary.tallies[b.pk].takes == 1


def test_two_tables_changed_since_the_last_look_are_aggregated_in_one_query() -> None:
    night = tonight()
    a, b, c, d, e = night.five
    other = second_table(night)
    refs = evening_tallies.night_refs(night.evening.club_id, TONIGHT)
    evening_tallies.evening_summaries(refs, TAROT, store=False)  # both read, exactly
    services.deal_record(game=night.game, inputs=deal(night.five, c, "petite", 1, 45, partner=a))
    services.deal_record(game=other, inputs=deal([e, d, c, b], d, "garde", 2, 50))
    refs = evening_tallies.night_refs(night.evening.club_id, TONIGHT)
    assert all(ref.added_deal for ref in refs)
    with CaptureQueriesContext(connection) as captured:
        summaries = evening_tallies.evening_summaries(refs, TAROT, store=False)
    scores = [q["sql"] for q in captured.captured_queries if "scorekeeper_dealscore" in q["sql"]]
    assert len(scores) == 1 and '"evening_id" IN (' in scores[0]  # one query, not one a deal
    assert summaries == [aggregate(refs, TAROT)[ref.evening_id] for ref in refs]
