"""`manage.py loadtest --scenario tournament`: the tournaments built and the requests wrk
sends, checked without wrk (the load itself is a benchmark, run on a quiet machine), and the
probe that times how soon the ranking shows a save, against a live server."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from scorekeeper.models import Deal, Tournament
from tests.tools.bench.wrk_items import send
from tools.bench import ranking_probe
from tools.bench.load_tournament import (
    PLAYED,
    build_tournament,
    build_tournaments,
    tournament_kinds,
    tournaments_kinds,
)
from tools.bench.wrk import _write_script

pytestmark = pytest.mark.django_db


def test_the_tournaments_are_built_with_a_table_more_for_the_probe() -> None:
    loads = build_tournaments(20, 3, settings.SECRET_KEY)
    assert [load.name for load in loads] == ["free"]
    tournament = Tournament.objects.get(pk=loads[0].tournament_id)
    assert tournament.entrants.count() == 16 and len(loads[0].tables) == 3
    assert loads[0].probe is not None and loads[0].probe.ranking.startswith("/ranking/")
    for table in loads[0].tables:
        assert Deal.objects.filter(game_id=table.game_id).count() == PLAYED
    kinds = {kind.name: kind for kind in tournaments_kinds(loads)}
    assert set(kinds) == {
        "free ranking poll",
        "free live poll",
        "free deal save",
        "free table page",
        "free organiser page",
        "login page",
    }
    assert kinds["free ranking poll"].connections == 50
    assert kinds["free ranking poll"].mean_delay_ms == 4000  # each phone every 4 s, as the page
    assert kinds["free deal save"].rate == pytest.approx(3 / 60)  # a deal a minute a table


def test_every_request_of_the_scenario_answers_what_the_load_test_expects() -> None:
    load = build_tournament(20, 2, settings.SECRET_KEY)
    for kind in tournament_kinds(load):
        answer = send(kind, kind.items[0])
        assert answer.status_code in kind.expect, (kind.name, answer.status_code)
    # The save went through the table's grant, past the round's plan as the organiser allowed.
    save = next(kind for kind in tournament_kinds(load) if kind.name == "deal save")
    send(save, save.items[0])
    assert Deal.objects.filter(game_id=load.tables[0].game_id).count() == PLAYED + 2


def test_the_wrk_scripts_of_the_tournament_are_written(tmp_path: Path) -> None:
    load = build_tournament(20, 2, settings.SECRET_KEY)
    for kind in tournament_kinds(load):
        script = _write_script(kind, tmp_path).read_text()
        assert kind.items[0]["path"] in script
        assert ('local kind, method, mean_delay = "poll"' in script) == (kind.name == "live poll")


@pytest.mark.django_db(transaction=True)
def test_the_probe_times_the_ranking_showing_each_of_its_saves(live_server, monkeypatch) -> None:
    probe = build_tournaments(20, 1, settings.SECRET_KEY)[0].probe
    assert probe is not None
    monkeypatch.setattr(ranking_probe, "PROBE_EVERY", 0.5)
    before = Deal.objects.count()
    lags = ranking_probe.follow(live_server.url, [probe], 1.8)
    assert lags["free"] and Deal.objects.count() == before + len(lags["free"])
    assert all(0 < lag < 5 for lag in lags["free"])  # shown, not given up on (30 s)
    assert ranking_probe.shown_within(lags["free"]) == max(lags["free"]) + 4


def test_the_scenario_is_an_option_of_the_command() -> None:
    with pytest.raises(CommandError, match="--scenario"):
        call_command("loadtest", "--scenario", "party")
