"""The club figures (ratings, head to head, records) just after a deal saved tonight: tonight's
deals are those of the version before with the saved deal added (its row and its scores),
exactly what reading the evening whole gives, and the figures are those replayed from the
first deal; anything else reads the evening whole."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from scorekeeper import services
from scorekeeper.models import Evening
from scorekeeper.reads import deal_facts
from scorekeeper.reads.club_figures import club_figures, replay_state
from scorekeeper.reads.deal_facts import EveningMark, evening_marks
from scorekeeper.scoring.deal_facts import DealFacts
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.server import shared_cache
from tests.scorekeeper.season_factories import (
    TONIGHT,
    deal,
    fresh_memory,
    passed,
    second_table,
    stakes,
    tonight,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    yield from fresh_memory()


def mark_of(evening: Evening) -> EveningMark:
    (mark,) = evening_marks(evening.club_id, TONIGHT, TONIGHT)
    return mark


def read(mark: EveningMark) -> tuple[tuple[DealFacts, ...], bool]:
    """Tonight's deals as the figures read them, and whether the saved deal alone was read
    (its row and its scores) rather than the evening (at the end)."""
    with CaptureQueriesContext(connection) as captured:
        facts = deal_facts.evening_facts([mark], share=False)[mark.evening_id]
    by_evening = f'"evening_id" = {mark.evening_id}'
    return facts, not any(by_evening in query["sql"] for query in captured.captured_queries)


def whole(mark: EveningMark) -> tuple[DealFacts, ...]:
    """The evening's deals read whole (nothing kept)."""
    return deal_facts._read([mark])[mark.evening_id]


def test_each_deal_saved_tonight_is_added_to_the_deals_of_the_version_before() -> None:
    night = tonight()
    a, b, c, d, e = night.five
    read(mark_of(night.evening))
    inputs = [
        deal(night.five, c, "petite", 1, 40, partner=d, petit_au_bout="attack"),
        passed(night.five),
        PaperDeal(
            seated=tuple(p.pk for p in night.five),
            scores={a.pk: 80, b.pk: -20, c.pk: -20, d.pk: -20, e.pk: -20},
        ),
        deal(night.five, e, "garde_contre", 3, 91, partner=a, chelem="announced"),
    ]
    for one in inputs:
        saved = services.deal_record(game=night.game, inputs=one)
        mark = mark_of(night.evening)
        assert mark.added_deal == saved.pk
        facts, added = read(mark)
        assert added
        assert facts == whole(mark)
        assert facts[-1].deal_id == saved.pk


def test_a_deal_of_lescopette_tonight_leaves_tonights_deals_as_they_were() -> None:
    night = tonight()
    a, b, c, d, _e = night.five
    escopette = services.game_start(
        evening=night.evening, players=[a, b, c, d], first_dealer=a, kind="escopette", target=100
    )
    won = stakes({a: [1, 2, 3, 4, 5], b: [6, 7, 12, 20]})
    before, _added = read(mark_of(night.evening))
    services.deal_record(game=escopette, inputs=won)
    facts, added = read(mark_of(night.evening))
    assert added and facts == before == whole(mark_of(night.evening))

    services.deal_record(game=escopette, inputs=won)
    seen = mark_of(night.evening)
    services.deal_delete(deal=night.first)  # the tarot deal deleted before the figures read
    facts, added = read(seen)
    assert not added and facts == whole(seen) == ()


def test_deals_read_at_a_later_version_than_they_are_named_by_are_never_added_to() -> None:
    night = tonight()
    a, b, *_ = night.five
    stale = mark_of(night.evening)
    services.deal_record(game=night.game, inputs=deal(night.five, b, "garde", 2, 70, partner=a))
    named_before, _added = read(stale)  # holds the second deal, named by the version before
    assert len(named_before) == 2
    mark = mark_of(night.evening)
    facts, added = read(mark)
    assert not added  # the second deal is not added again to deals that hold it
    assert facts == whole(mark) and len(facts) == 2


def test_a_version_raised_since_the_deal_was_saved_names_no_deal() -> None:
    """The version raised alone after a deal saved (the marker left as it was) names no
    deal: the saved deal is not added a second time to the deals that hold it."""
    night = tonight()
    a, b, *_ = night.five
    saved = services.deal_record(
        game=night.game, inputs=deal(night.five, b, "garde", 2, 70, partner=a)
    )
    kept, _added = read(mark_of(night.evening))
    Evening.objects.filter(pk=night.evening.pk).update(version=F("version") + 1)
    assert Evening.objects.get(pk=night.evening.pk).added_deal == saved.pk  # left as it was
    mark = mark_of(night.evening)
    assert mark.added_deal is None
    facts, added = read(mark)
    assert not added
    assert facts == whole(mark) == kept and len(facts) == 2


def test_a_deal_changed_or_gone_since_the_version_read_reads_the_evening_whole() -> None:
    night = tonight()
    a, b, c, *_ = night.five
    read(mark_of(night.evening))
    services.deal_record(game=night.game, inputs=deal(night.five, b, "garde", 2, 70, partner=c))
    seen = mark_of(night.evening)
    services.deal_delete(deal=night.first)  # another phone deletes the first deal meanwhile
    facts, added = read(seen)
    assert not added and facts == whole(seen) and len(facts) == 1

    read(mark_of(night.evening))
    second = services.deal_record(
        game=night.game, inputs=deal(night.five, c, "petite", 1, 45, partner=a)
    )
    seen = mark_of(night.evening)
    services.deal_delete(deal=second)  # the deal itself gone before the figures read it
    facts, added = read(seen)
    assert not added and facts == whole(seen)


def test_the_ratings_after_deals_saved_tonight_are_those_replayed_from_the_first_deal() -> None:
    night = tonight()
    a, b, c, d, e = night.five
    takers = [(b, c), (c, d), (d, e), (e, a), (a, b), (b, d)]
    club_figures(night.evening.club_id)
    for number, (taker, partner) in enumerate(takers):
        inputs = deal(night.five, taker, "garde", 2, 35 + 7 * number, partner=partner)
        services.deal_record(game=night.game, inputs=inputs)
        figures = club_figures(night.evening.club_id)
    marks = evening_marks(night.evening.club_id, None, None)
    replayed = replay_state(marks)
    assert figures.state.deals == replayed.deals == 7
    assert figures.state.ratings.table() == replayed.ratings.table()
    assert figures.state.paid == replayed.paid
    assert figures.state.longest_runs == replayed.longest_runs


def test_two_tables_changed_since_the_last_look_are_read_together() -> None:
    night = tonight()
    a, b, c, d, e = night.five
    other = second_table(night)
    marks = evening_marks(night.evening.club_id, TONIGHT, TONIGHT)
    for mark in marks:
        read(mark)  # each read alone, exactly
    services.deal_record(game=night.game, inputs=deal(night.five, c, "petite", 1, 45, partner=a))
    services.deal_record(game=other, inputs=deal([e, d, c, b], d, "garde", 2, 50))
    marks = evening_marks(night.evening.club_id, TONIGHT, TONIGHT)
    assert all(mark.added_deal for mark in marks)
    with CaptureQueriesContext(connection) as captured:
        facts = deal_facts.evening_facts(marks, share=False)
    assert len(captured.captured_queries) == 2  # their deals, then their scores
    assert facts == deal_facts._read(marks)


def test_another_process_takes_tonights_deals_from_the_shared_cache() -> None:
    """Another worker (or a restarted one) showing the figures next reads no deal of tonight's
    evening a process has read since; after a deal saved, the version before's deals shared
    there get that deal added."""
    night = tonight()
    a, b = night.five[:2]
    read(mark_of(night.evening))
    shared_cache.forget_local()  # another process: nothing of this one's memory
    mark = mark_of(night.evening)
    with CaptureQueriesContext(connection) as captured:
        facts = deal_facts.evening_facts([mark], share=False)[mark.evening_id]
    assert captured.captured_queries == []
    assert facts == whole(mark)

    saved = services.deal_record(
        game=night.game, inputs=deal(night.five, b, "garde", 2, 70, partner=a)
    )
    shared_cache.forget_local()
    mark = mark_of(night.evening)
    facts, added = read(mark)
    assert added  # the version before's deals, from the shared cache, and the deal saved
    assert facts == whole(mark) and facts[-1].deal_id == saved.pk


def test_deals_shared_from_a_read_of_several_evenings_are_never_added_to() -> None:
    """Evenings read together are not known to be exactly their versions': another process
    takes them as they are, but reads the evening whole after a deal saved."""
    night = tonight()
    a, c = night.five[0], night.five[2]
    second_table(night)
    deal_facts.evening_facts(evening_marks(night.evening.club_id, TONIGHT, TONIGHT), share=False)
    services.deal_record(game=night.game, inputs=deal(night.five, c, "petite", 1, 45, partner=a))
    shared_cache.forget_local()
    (mark, _other) = sorted(
        evening_marks(night.evening.club_id, TONIGHT, TONIGHT),
        key=lambda m: m.evening_id != night.evening.pk,
    )
    assert mark.evening_id == night.evening.pk and mark.added_deal is not None
    facts, added = read(mark)
    assert not added
    assert facts == whole(mark)
