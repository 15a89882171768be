"""``manage.py loadtest --live``: with events (the default) every phone holds an event stream
and fetches the rows after a deal; with polls, the phones poll as before."""

from __future__ import annotations

import pytest

from tools.bench.event_streams import StreamFigures
from tools.bench.load_club import DEAL_EVERY, PHONES, Table
from tools.bench.load_night import Night, night_kinds, night_streams
from tools.bench.load_run import LoadRun
from tools.bench.load_scenarios import cookie, kinds
from tools.bench.load_tournament import TournamentLoad
from tools.bench.management.commands.loadtest import Command


def tables(count: int, phones: int = PHONES, first: int = 1) -> list[Table]:
    return [
        Table(
            evening_id=first + n,
            game_id=100 + first + n,
            present=[1, 2, 3, 4],
            cookies=[f"s{first + n}-{phone}" for phone in range(phones)],
            version=3,
            club_id=1,
            season_id=1,
        )
        for n in range(count)
    ]


def night(clubs: int = 12, tournament: int = 4) -> Night:
    load = TournamentLoad(9, "token", "organiser", tables(tournament, phones=1, first=500))
    return Night(2, tables(clubs), load)


def test_with_events_no_phone_polls_its_evening_and_the_others_fetch_the_rows_of_each_deal() -> (
    None
):
    sent = {kind.name: kind for kind in kinds(tables(12), live="events")}
    assert "live poll" not in sent
    assert sent["live update (200)"].rate == pytest.approx(12 / DEAL_EVERY * (PHONES - 1))
    assert sent["deal save"].rate == pytest.approx(12 / DEAL_EVERY)


def test_with_polls_the_phones_poll_every_four_seconds_as_before() -> None:
    sent = {kind.name: kind for kind in kinds(tables(12), live="poll")}
    assert sent["live poll"].rate == pytest.approx(12 * PHONES / 4)
    assert sent["live update (200)"].rate == pytest.approx(12 / DEAL_EVERY * (PHONES - 3))


def test_with_events_the_tournament_tables_stop_polling_and_its_ranking_still_polls() -> None:
    names = [kind.name for kind in night_kinds(night(), live="events")]
    assert not [name for name in names if name.endswith("live poll")]
    assert "tournament ranking poll" in names and "tournament deal save" in names
    assert "tournament live poll" in [kind.name for kind in night_kinds(night(), live="poll")]


def test_every_phone_of_the_night_holds_one_stream_of_its_evening() -> None:
    phones = night_streams(night(clubs=12, tournament=4))
    assert len(phones) == 12 * PHONES + 4
    assert len(set(phones)) == len(phones)
    assert ("/evenings/1/events/", cookie("s1-0")) in phones
    assert ("/evenings/500/events/", cookie("s500-0")) in phones


def test_events_are_the_default_and_polls_a_choice() -> None:
    parser = Command().create_parser("manage.py", "loadtest")
    assert parser.parse_args([]).live == "events"
    assert parser.parse_args(["--live", "poll"]).live == "poll"


def run_with(streams: StreamFigures, saved: int) -> LoadRun:
    save = kinds(tables(1), live="events")[1]
    save.result = {"statuses": {"200": saved}, "requests": saved, "seconds": 10.0, "p95": 9000}
    return LoadRun([save], redis=True, cpu=[3.0, 1.0, 0.5], live="events", streams=streams)


def test_a_refused_stream_or_no_version_heard_while_deals_were_saved_fails_the_run() -> None:
    assert run_with(StreamFigures(phones=5, opened=5, versions=4), saved=2).stream_problems() == []
    (refused,) = run_with(
        StreamFigures(phones=5, opened=4, refused=1, versions=4), saved=2
    ).stream_problems()
    assert refused.startswith("1 of 5 event streams were refused")
    (silent,) = run_with(StreamFigures(phones=5, opened=5), saved=2).stream_problems()
    assert silent == "2 deals were saved and no stream heard a new version"
    assert run_with(StreamFigures(phones=5, opened=5), saved=0).stream_problems() == []


def test_the_workers_cpu_is_gunicorn_s_and_uvicorn_s_per_request_and_per_second() -> None:
    run = run_with(StreamFigures(phones=5, opened=5, versions=4), saved=10)
    figures = run.as_json(1, 10)
    assert figures["cpu_seconds"]["workers"] == pytest.approx(3.5)
    assert figures["cpu_ms_per_request"]["uvicorn"] == pytest.approx(50.0)
    assert figures["cpu_per_second"] == pytest.approx(
        {"gunicorn": 0.3, "uvicorn": 0.05, "workers": 0.35, "postgresql": 0.1}
    )
    assert figures["streams"]["version_events"] == 4
