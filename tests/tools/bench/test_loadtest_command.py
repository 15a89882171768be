"""`manage.py loadtest` refuses what it cannot do, before it starts anything.

The load test itself is a benchmark (docs/operations.md, "The benchmark and the load test"),
not part of the suite: it needs wrk, nginx and minutes of a quiet machine.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Evening
from scorekeeper.reads.sheet_changes import as_of_now
from scorekeeper.scoring.tarot import PassedDeal
from tests.factories import make_club, make_member, start_evening
from tools.bench import load_club
from tools.bench.load_scenarios import Kind
from tools.bench.wrk import LUA
from tools.bench.wrk import lua_value as _lua_value


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--tables", "0"], "--tables"), (["--duration", "2"], "--duration")],
)
def test_bad_arguments_are_refused(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("loadtest", *args)


@pytest.mark.skipif(connection.vendor == "postgresql", reason="the SQLite pass")
def test_it_needs_postgresql(monkeypatch) -> None:
    monkeypatch.setattr("shutil.which", lambda name: f"/usr/bin/{name}")
    with pytest.raises(CommandError, match="postgres"):
        call_command("loadtest", "--tables", "1", "--duration", "5")


def test_requests_are_written_for_wrk_as_lua_tables() -> None:
    item = {"path": "/evenings/3/live/", "version": 4, "headers": {"Cookie": 'a="b"'}}
    assert _lua_value([item]) == (
        '{{["path"] = "/evenings/3/live/", ["version"] = 4, '
        '["headers"] = {["Cookie"] = "a=\\"b\\""}}}'
    )


def test_phones_wait_so_that_the_kind_keeps_its_rate() -> None:
    polls = Kind("live poll", [], rate=250.0, connections=1000, expect=(200, 304))
    assert polls.mean_delay_ms == 4000  # 1000 phones polling every 4 s: 250 a second


def lua_pattern_as_regex(pattern: str) -> str:
    """The few Lua pattern items the load test's script uses, as a Python regex."""
    items = (("%w", "A-Za-z0-9"), ("%s", r"\s"), ("%d", r"\d"), ("%-", r"\-"), ("]-", "]*?"))
    for lua, regex in items:
        pattern = pattern.replace(lua, regex)
    return pattern


@pytest.mark.django_db
def test_the_phones_of_the_load_test_read_the_new_version_and_moment_from_a_live_answer() -> None:
    """Else every poll after a deal would be a full answer (the whole sheet, where a phone
    gets the changed rows), and the figures a fiction."""
    club, players = make_club()
    member = make_member(club)
    evening, game = start_evening(club, players)
    evening.refresh_from_db()
    client = Client()
    client.force_login(member)
    services.deal_record(game=game, inputs=PassedDeal(seated=tuple(p.pk for p in players)))
    url = reverse("evening_live", args=[evening.pk])
    before = as_of_now()
    answer = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=f'"{evening.version}"')
    assert answer.status_code == 200
    lua = re.search(r"string\.match\(\s*body, '([^']+)'\)", LUA).group(1)
    found = re.search(lua_pattern_as_regex(lua), answer.content.decode())
    assert found is not None
    assert (found.group(1), int(found.group(2))) == (url, evening.version + 1)
    assert before <= int(found.group(3)) <= as_of_now()


def test_the_cpu_of_a_child_that_has_ended_still_counts() -> None:
    """gunicorn replaces workers during the load: their CPU must not vanish from the sum."""
    from tools.bench import local_servers

    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys, time\n"
            "subprocess.run([sys.executable, '-c', 'sum(range(50_000_000))'])\n"
            "print('ended', flush=True)\n"
            "time.sleep(30)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout.readline().strip() == "ended"  # the child has run and is gone
        alive = local_servers.process_tree(parent.pid)
        assert alive == [parent.pid]
        assert local_servers.cpu_seconds(alive) < 0.2  # the parent itself did little
        assert local_servers.tree_cpu_seconds(parent.pid) >= 0.2  # the child's work counts
    finally:
        parent.kill()
        parent.wait()


def test_the_machines_busy_time_holds_the_work_done_meanwhile() -> None:
    """The report says how busy the whole machine was, so that a slow run on a machine busy
    elsewhere (or robbed by its host) can be told from a slow app."""
    import time

    from tools.bench import local_servers

    busy, stolen = local_servers.machine_cpu_seconds()
    started = time.process_time()
    sum(range(20_000_000))
    spent = time.process_time() - started
    later_busy, later_stolen = local_servers.machine_cpu_seconds()
    assert spent > 0.1
    assert later_busy - busy >= spent - 0.05  # ticks of 10 ms
    assert later_stolen >= stolen >= 0


@pytest.mark.django_db
def test_the_tables_play_one_club_night_after_the_clubs_last_evening() -> None:
    tables = load_club.build_tables(100, 3, "secret", dates="night")[1]
    dates = {Evening.objects.get(pk=table.evening_id).date for table in tables}
    assert len(dates) == 1
    (tonight,) = dates
    assert not Evening.objects.filter(date__gt=tonight).exists()  # the season's latest night
    assert Evening.objects.filter(date=tonight).count() == 3  # the tables alone


@pytest.mark.django_db
def test_spread_the_tables_play_a_date_each() -> None:
    tables = load_club.build_tables(100, 3, "secret", dates="spread")[1]
    assert len({Evening.objects.get(pk=table.evening_id).date for table in tables}) == 3


@pytest.mark.django_db
def test_with_their_own_players_nobody_sits_at_two_tables() -> None:
    tables = load_club.build_tables(100, 3, "secret", seating="own")[1]
    seated = [set(table.present) for table in tables]
    assert sum(len(players) for players in seated) == len(set().union(*seated))


@pytest.mark.django_db
def test_with_the_club_s_players_they_sit_at_every_table() -> None:
    tables = load_club.build_tables(100, 3, "secret", seating="club")[1]
    assert set(tables[0].present) & set(tables[1].present)


def test_the_seating_is_an_option_of_the_command() -> None:
    with pytest.raises(CommandError, match="--seating"):
        call_command("loadtest", "--seating", "anywhere")


def test_the_tables_dates_are_an_option_of_the_command() -> None:
    with pytest.raises(CommandError, match="--dates"):
        call_command("loadtest", "--dates", "someday")


def test_a_database_that_does_not_answer_is_said_in_one_line() -> None:
    from tools.bench.local_servers import postgres_database

    refused = pytest.raises(CommandError, match=r"PostgreSQL at 127\.0\.0\.1:1 does not answer")
    with refused, postgres_database("postgres://someone:secret@127.0.0.1:1/night", "loadtest"):
        pass
