"""`manage.py rating_quality` prints the prediction figure of a real club and synthetic ones."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from tests.scorekeeper.season_factories import hand_computed_season, make_world
from tools.bench.rating_benchmark import quality_line
from tools.bench.rating_club import synthetic_club


@pytest.mark.django_db
def test_it_prints_each_season_and_all_time_of_the_club_and_the_synthetic_clubs() -> None:
    world = make_world()
    hand_computed_season(world)
    out = io.StringIO()
    call_command("rating_quality", "--club", str(world.club.pk), "--synthetic", stdout=out)
    text = out.getvalue()
    assert f"Les Bouts (#{world.club.pk}), all time: 6 deals, Brier" in text
    assert "2025" in text
    assert "synthetic club, skill spread 1.0" in text and "the rating beats the base rate" in text


@pytest.mark.django_db
def test_an_unknown_club_is_refused() -> None:
    with pytest.raises(CommandError):
        call_command("rating_quality", "--club", "999999", stdout=io.StringIO())


def test_the_benchmark_line_says_whether_the_rating_beats_the_base_rate():
    assert "the rating beats the base rate" in quality_line("x", synthetic_club(spread=1.0).deals)
    line = quality_line("x", synthetic_club(spread=0.0).deals)
    assert "does NOT beat the base rate" in line
