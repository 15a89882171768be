"""`manage.py loadtest` refuses what it cannot do, before it starts anything.

The load test itself is a benchmark (README, "Scale"), not part of the suite: it needs wrk,
nginx and minutes of a quiet machine.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from scorekeeper.management.commands.loadtest import Kind, _lua_value


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
