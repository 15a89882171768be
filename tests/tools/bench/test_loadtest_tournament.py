"""`manage.py loadtest --scenario tournament`: the tournament built and the requests wrk
sends, checked without wrk (the load itself is a benchmark, run on a quiet machine)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from scorekeeper.models import Deal, Tournament
from tests.tools.bench.wrk_items import send
from tools.bench.load_tournament import (
    DEALS_PER_ROUND,
    build_tournament,
    tournament_kinds,
)
from tools.bench.wrk import _write_script

pytestmark = pytest.mark.django_db


def test_the_tournament_is_built_with_the_last_deal_of_the_round_to_save() -> None:
    load = build_tournament(20, 3, settings.SECRET_KEY)
    tournament = Tournament.objects.get(pk=load.tournament_id)
    assert tournament.entrants.count() == 12 and len(load.tables) == 3
    for table in load.tables:
        assert Deal.objects.filter(game_id=table.game_id).count() == DEALS_PER_ROUND - 1
    kinds = {kind.name: kind for kind in tournament_kinds(load)}
    assert set(kinds) == {
        "ranking poll",
        "live poll",
        "last deal save",
        "table page",
        "organiser page",
        "login page",
    }
    assert kinds["ranking poll"].connections == 50
    assert kinds["ranking poll"].mean_delay_ms == 4000  # each phone every 4 s
    assert kinds["last deal save"].rate == pytest.approx(3 / 60)  # every table within a minute


def test_every_request_of_the_scenario_answers_what_the_load_test_expects() -> None:
    load = build_tournament(20, 2, settings.SECRET_KEY)
    for kind in tournament_kinds(load):
        answer = send(kind, kind.items[0])
        assert answer.status_code in kind.expect, (kind.name, answer.status_code)
    # The save went through the table's grant: the round's last deal is in.
    assert Deal.objects.filter(game_id=load.tables[0].game_id).count() == DEALS_PER_ROUND


def test_the_wrk_scripts_of_the_tournament_are_written(tmp_path: Path) -> None:
    load = build_tournament(20, 2, settings.SECRET_KEY)
    for kind in tournament_kinds(load):
        script = _write_script(kind, tmp_path).read_text()
        assert kind.items[0]["path"] in script
        assert ('local kind, method, mean_delay = "poll"' in script) == (kind.name == "live poll")


def test_the_scenario_is_an_option_of_the_command() -> None:
    with pytest.raises(CommandError, match="--scenario"):
        call_command("loadtest", "--scenario", "party")
