"""Player ratings from openskill, and whether they predict deals better than the base rate."""

from __future__ import annotations

import math
import pickle
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from scorekeeper.scoring.rating_quality import QualitySums
from scorekeeper.scoring.ratings import (
    BETA,
    MIN_DEALS,
    OutOfOrder,
    RatingState,
    filled_teams,
    neutral_seat,
    rating_model,
)
from tests.scoring.hand_season import FOUR, corrected, paper, passed, played, replay, season
from tools.bench.rating_club import synthetic_club

ROOT = Path(__file__).resolve().parents[2]


def library_ratings(deals):
    """The same deals rated by calling openskill directly, teams filled with sure average seats."""
    model = PlackettLuce(mu=25.0, sigma=25.0 / 3.0, beta=BETA)
    ratings = {}
    for deal in deals:
        if deal.passed or deal.paper:
            continue
        attack = [ratings.setdefault(p, model.rating()) for p in deal.attack]
        defence = [ratings.setdefault(p, model.rating()) for p in deal.defenders]
        size = max(len(attack), len(defence))
        attack += [model.rating(mu=25.0, sigma=1e-3) for _ in range(size - len(attack))]
        defence += [model.rating(mu=25.0, sigma=1e-3) for _ in range(size - len(defence))]
        new_attack, new_defence = model.rate(
            [attack, defence], ranks=[0, 1] if deal.made else [1, 0]
        )
        ratings.update(zip(deal.attack, new_attack, strict=False))
        ratings.update(zip(deal.defenders, new_defence, strict=False))
    return {player: (r.mu, r.sigma) for player, r in ratings.items()}


def figures(state: RatingState):
    return {row.player: (row.mu, row.sigma, row.deals) for row in state.table()}


def test_the_ratings_are_those_of_openskill_called_directly_on_the_same_deals():
    state = replay(season())
    expected = library_ratings(season())
    assert set(expected) == {"A", "B", "C", "D", "E"}
    for player, (mu, sigma) in expected.items():
        rating = state.player(player)
        assert rating.mu == pytest.approx(mu, rel=1e-12)
        assert rating.sigma == pytest.approx(sigma, rel=1e-12)
        assert rating.conservative == pytest.approx(mu - 3 * sigma, rel=1e-12)


def test_a_won_deal_raises_the_attack_and_lowers_the_defence():
    state = replay(season()[:1])
    assert state.player("A").mu > 25 > state.player("B").mu
    assert state.player("A").sigma < 25 / 3


def test_a_lone_taker_against_three_even_players_is_given_an_even_chance():
    quality = replay(season()[:1]).quality.result()  # (1/2 - made)² and -log(1/2)
    assert (quality.deals, quality.brier) == (1, pytest.approx(0.25))
    assert quality.log_loss == pytest.approx(math.log(2))


def test_replaying_the_same_deals_gives_the_same_figures():
    assert figures(replay(season())) == figures(replay(list(reversed(season()))))


def test_a_state_advanced_deal_by_deal_equals_a_full_replay():
    state = RatingState()
    for deal in season():
        state.advance([deal])
    assert figures(state) == figures(replay(season()))
    assert state.player("A").history == replay(season()).player("A").history


def test_an_older_deal_cannot_be_added_to_a_state_that_is_past_it():
    state = replay(season())
    with pytest.raises(OutOfOrder):
        state.advance([replace(season()[1], deal_id=99)])


def test_correcting_an_old_deal_changes_the_ratings_after_it():
    before = replay(season())
    fixed = corrected(season(), 2, played(2, 1, FOUR, "B", "petite", 1, 40))
    after = replay(fixed)
    assert after.player("B").mu < before.player("B").mu
    assert after.player("E").mu != before.player("E").mu


def test_passed_and_paper_deals_leave_the_ratings_alone():
    base = season()[:2]
    extra = [passed(3, 1, FOUR), paper(4, 1, {"A": 300, "B": -100, "C": -100, "D": -100})]
    assert figures(replay(base + extra)) == figures(replay(base))
    assert replay(base + extra).quality.count == 2


def test_a_rating_is_shown_only_after_enough_deals():
    state = replay(season())
    assert state.player("A").deals == 8
    assert not state.player("A").shown
    club = replay(synthetic_club(players=5, evenings=2, deals_per_evening=25).deals)
    assert any(row.shown for row in club.table())
    assert all(row.shown == (row.deals >= MIN_DEALS) for row in club.table())


def test_a_newcomer_has_the_prior_and_a_conservative_figure_of_zero():
    newcomer = replay(season()).player("Z")
    assert (newcomer.mu, newcomer.deals, newcomer.history) == (25.0, 0, ())
    assert newcomer.conservative == pytest.approx(0.0)


def test_a_state_read_back_from_its_pickle_advances_apart():
    deals = season()
    state = replay(deals[:5])
    copy = pickle.loads(pickle.dumps(state))
    copy.advance(deals[5:])
    assert figures(copy) == figures(replay(deals))
    assert copy.quality == replay(deals).quality
    assert figures(state) == figures(replay(deals[:5]))


def test_the_smaller_team_is_filled_from_the_given_neutral_seats_or_with_new_ones():
    model = rating_model()
    taker, *defence = (model.rating() for _ in range(5))
    pool = [neutral_seat(model) for _ in range(3)]
    attack, filled_defence = filled_teams(model, [taker], defence, pool)
    assert attack == [taker, *pool] and attack[1] is pool[0]
    assert filled_defence == defence
    attack, _ = filled_teams(model, [taker], [*defence, model.rating()], pool)
    assert len(attack) == 5 and not any(seat is kept for seat in attack for kept in pool)
    assert {(seat.mu, seat.sigma) for seat in attack[1:]} == {(model.mu, 1e-3)}


def test_rating_a_deal_leaves_the_objects_handed_to_the_library_as_they_were():
    state = replay(season()[:3])
    neutral = [(seat.mu, seat.sigma) for seat in state._neutral]
    state.advance(season()[3:])
    assert [(seat.mu, seat.sigma) for seat in state._neutral] == neutral
    assert figures(state) == figures(replay(season()))


def test_the_history_keeps_the_last_point_of_each_evening():
    history = replay(season()).player("A").history
    assert [point.evening_id for point in history] == [1, 2]
    assert [point.deal_id for point in history] == [6, 10]


def test_the_model_is_plackett_luce_with_a_wide_beta():
    model = rating_model()
    assert isinstance(model, PlackettLuce)
    assert model.beta == pytest.approx(2 * 25 / 3)


def test_the_synthetic_club_is_the_same_for_the_same_seed():
    assert synthetic_club(seed=7).deals == synthetic_club(seed=7).deals
    assert synthetic_club(seed=7).deals != synthetic_club(seed=8).deals


def test_the_brier_score_and_log_loss_are_computed_against_the_running_base_rate():
    sums = QualitySums()
    for chance, made in ((0.8, True), (0.4, False), (0.6, True)):
        sums.add(chance, made)
    quality = sums.result()
    # Base rate before each deal: 1/2, 2/3, 2/4.
    assert quality.deals == 3
    assert quality.brier == pytest.approx((0.04 + 0.16 + 0.16) / 3)
    assert quality.brier_base == pytest.approx((0.25 + 4 / 9 + 0.25) / 3)
    assert quality.beats_base_rate


def test_no_deal_does_not_beat_the_base_rate():
    assert not QualitySums().result().beats_base_rate


def test_on_a_synthetic_club_of_unequal_players_the_rating_beats_the_base_rate():
    quality = replay(synthetic_club(spread=1.0).deals).quality.result()
    assert quality.deals > 900
    assert quality.brier < quality.brier_base
    assert quality.log_loss < quality.log_loss_base
    assert quality.beats_base_rate


def test_on_a_synthetic_club_where_skill_does_not_matter_the_rating_does_not_beat_it():
    quality = replay(synthetic_club(spread=0.0).deals).quality.result()
    assert not quality.beats_base_rate


def test_the_figures_modules_import_no_django():
    modules = ", ".join(
        f"scorekeeper.scoring.{name}"
        for name in (
            "deal_facts",
            "ratings",
            "rating_quality",
            "club_figures",
            "club_records",
        )
    )
    code = f"import sys, {modules}; sys.exit('django' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], check=False, cwd=ROOT)
    assert result.returncode == 0
