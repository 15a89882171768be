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
    DUPLICATE_DEALS,
    PLAYED,
    build_tournaments,
    tournament_kinds,
    tournaments_kinds,
)
from tools.bench.wrk import _write_script

pytestmark = pytest.mark.django_db


def test_the_tournaments_are_built_with_a_table_more_for_the_probe() -> None:
    loads = build_tournaments(20, 3, settings.SECRET_KEY)
    assert [load.name for load in loads] == ["free", "duplicate"]
    for load in loads:
        tournament = Tournament.objects.get(pk=load.tournament_id)
        assert tournament.kind == load.name
        assert tournament.entrants.count() == 16 and len(load.tables) == 3
        assert load.probe is not None and load.probe.ranking.startswith("/ranking/")
        for table in load.tables:
            assert Deal.objects.filter(game_id=table.game_id).count() == PLAYED
    # A duplicate table has the cases of its round left to save, the probe's all of them.
    cases = loads[1].cases
    assert all(len(cases[t.evening_id]) == DUPLICATE_DEALS - PLAYED for t in loads[1].tables)
    assert len(loads[1].probe.save["cases"]) == DUPLICATE_DEALS
    kinds = {kind.name: kind for kind in tournaments_kinds(loads)}
    assert set(kinds) == {
        f"{name} {kind}"
        for name in ("free", "duplicate")
        for kind in ("ranking poll", "live poll", "deal save", "table page", "organiser page")
    } | {"login page"}
    assert kinds["free ranking poll"].connections == 50
    assert kinds["free ranking poll"].mean_delay_ms == 4000  # each phone every 4 s, as the page
    assert kinds["free deal save"].rate == pytest.approx(3 / 60)  # a deal a minute a table


def test_the_duplicate_tables_are_tournaments_of_at_most_sixty_players() -> None:
    loads = build_tournaments(20, 15, settings.SECRET_KEY)
    duplicate = [load for load in loads if load.name == "duplicate"]
    assert [len(load.tables) + (load.probe is not None) for load in duplicate] == [8, 8]
    kinds = {kind.name: kind for kind in tournaments_kinds(loads)}
    assert len(kinds["duplicate live poll"].items) == 15
    assert kinds["duplicate ranking poll"].connections == 50  # shared by the two
    assert (
        kinds["duplicate organiser page"]
        .items[1]["path"]
        .endswith(f"/{duplicate[1].tournament_id}/")
    )


def test_every_request_of_the_scenario_answers_what_the_load_test_expects() -> None:
    loads = build_tournaments(20, 2, settings.SECRET_KEY)
    for kind in tournaments_kinds(loads):
        answer = send(kind, kind.items[0])
        assert answer.status_code in kind.expect, (kind.name, answer.status_code)
    # The saves went through the tables' grants: a free table past the round's plan, as the
    # organiser allowed; a duplicate table with its next case.
    free, duplicate = loads[0].tables[0], loads[1].tables[0]
    save = next(kind for kind in tournament_kinds(loads[0]) if kind.name == "deal save")
    send(save, save.items[0])
    assert Deal.objects.filter(game_id=free.game_id).count() == PLAYED + 2
    played = Deal.objects.filter(game_id=duplicate.game_id)
    assert played.count() == PLAYED + 1
    assert played.order_by("number").last().case_number == loads[1].cases[duplicate.evening_id][0]


def test_the_wrk_scripts_of_the_tournaments_are_written(tmp_path: Path) -> None:
    for kind in tournaments_kinds(build_tournaments(20, 2, settings.SECRET_KEY)):
        script = _write_script(kind, tmp_path).read_text()
        assert kind.items[0]["path"] in script
        polls = kind.name.endswith("live poll")
        assert ('local kind, method, mean_delay = "poll"' in script) == polls
        assert ('["cases"] = {' in script) == (kind.name == "duplicate deal save")


@pytest.mark.django_db(transaction=True)
def test_the_probe_times_each_ranking_showing_its_saves(live_server, monkeypatch) -> None:
    probes = [load.probe for load in build_tournaments(20, 2, settings.SECRET_KEY)]
    monkeypatch.setattr(ranking_probe, "PROBE_EVERY", 0.4)
    before = Deal.objects.count()
    lags = ranking_probe.follow(live_server.url, probes, 2.5)
    assert lags["free"] and lags["duplicate"]
    assert Deal.objects.count() == before + len(lags["free"]) + len(lags["duplicate"])
    for lag in [*lags["free"], *lags["duplicate"]]:
        assert 0 < lag < 5  # shown, not given up on (30 s)
    assert ranking_probe.shown_within(lags["free"]) == max(lags["free"]) + 4


def test_the_scenario_is_an_option_of_the_command() -> None:
    with pytest.raises(CommandError, match="--scenario"):
        call_command("loadtest", "--scenario", "party")
