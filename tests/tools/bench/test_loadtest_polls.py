"""The load test's phones poll as live.js does: ``If-None-Match`` with the version they last
saw and ``?since=`` with the page's moment; wrk itself sends them, to a recording server."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.tools.bench.local_upstream import upstream
from tools.bench.load_scenarios import Kind
from tools.bench.wrk import run_wrk

pytestmark = pytest.mark.skipif(shutil.which("wrk") is None, reason="needs wrk")

LIVE = b'<div id="live-totals" data-live-url="/evenings/3/live/" data-version="5" data-as-of="777">'


def polls(tmp_path: Path, *, version_in_address: bool = False) -> list[tuple[str, str]]:
    """One phone polling evening 3 for a second (shown: version 4, moment 100); the first
    poll gets version 5, the next ones a 304. The (path, If-None-Match) of each poll."""

    def answer(path: str, headers: dict[str, str]) -> tuple[int, bytes]:
        return (304, b"") if headers.get("If-None-Match") == '"5"' else (200, LIVE)

    item = {
        "path": "/evenings/3/live/",
        "version": 4,
        "since": 100,
        "headers": {"Cookie": "sessionid=x", "HX-Request": "true"},
    }
    kind = Kind("live poll", [item], rate=20.0, connections=1, expect=(200, 304))
    with upstream(answer) as (port, seen):
        run_wrk(
            shutil.which("wrk") or "wrk",
            f"http://127.0.0.1:{port}",
            [kind],
            1,
            tmp_path,
            version_in_address=version_in_address,
        )
    assert kind.result["statuses"]["304"] >= 2
    return [(path, headers.get("If-None-Match", "")) for _method, path, headers in seen]


def test_a_phone_polls_with_if_none_match_the_version_it_last_saw(tmp_path: Path) -> None:
    sent = polls(tmp_path)
    assert sent[0] == ("/evenings/3/live/?since=100", '"4"')  # what its page showed
    assert set(sent[1:]) == {("/evenings/3/live/?since=777", '"5"')}  # the answer's


def test_for_an_older_app_the_version_is_in_the_address_too(tmp_path: Path) -> None:
    sent = polls(tmp_path, version_in_address=True)
    assert sent[0] == ("/evenings/3/live/?since=100&version=4", '"4"')
    assert set(sent[1:]) == {("/evenings/3/live/?since=777&version=5", '"5"')}
