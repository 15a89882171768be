"""One run of ``manage.py loadtest``: servers up on loopback, the club built, the load sent.

A database of its own next to DATABASE_URL's (``<name>_loadtest``, dropped at the end), a
Redis of its own when ``redis-server`` is installed, gunicorn with the project's
gunicorn.conf.py and DEBUG off, and with ``--live events`` uvicorn for the event streams, behind
the nginx site of docs/operations.md (``documented_nginx``). After the warm-up the phones'
streams are opened (``event_streams``: their opening is not in the load's CPU, holding them
is); then wrk sends every kind of request at once while the CPU time of gunicorn, of uvicorn
and of PostgreSQL's whole server is counted.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError

from tools.bench import documented_nginx, local_servers
from tools.bench.databases import connected_to, database_url
from tools.bench.event_streams import StreamFigures, Streams
from tools.bench.load_club import build_tables
from tools.bench.load_night import (
    TOURNAMENT_TABLES,
    build_night,
    night_kinds,
    night_streams,
    night_warm_up,
)
from tools.bench.load_scenarios import LIVE, Kind, kinds, streams, warm_up
from tools.bench.load_tournament import (
    build_tournaments,
    tournament_streams,
    tournaments_kinds,
    tournaments_warm_up,
)
from tools.bench.ranking_probe import Probe, follow
from tools.bench.wrk import run_wrk

TARGET_P95_MS = 150.0
#: night: many clubs and a tournament (the default); one-club: the earlier load, one club's
#: tables (for comparison only); tournament: a club's tournaments ending their round.
SCENARIOS = ("night", "one-club", "tournament")
#: Seconds to open every phone's stream before the load starts (a slow start is reported).
OPENING_SECONDS = 120.0


@dataclass
class LoadRun:
    kinds: list[Kind]
    redis: bool  # one Redis for every worker (else a cache per worker)
    #: CPU seconds during the load: gunicorn's, PostgreSQL's, uvicorn's (0 without streams)
    cpu: list[float]
    dates: str = "night"  # the tables' dates (``load_club.DATES``)
    figures: bool = False  # the club's figures pages were looked at too
    seating: str = "club"  # who sat at the tables (``load_club.SEATINGS``)
    scenario: str = "night"  # what was played (``SCENARIOS``)
    clubs: int = 1  # the clubs whose tables played (a night's: the tournament's apart)
    tournament_tables: int = 0  # a night's tournament's tables
    #: The whole machine's CPU seconds during the load: busy (ours, wrk's, nginx's and any
    #: other process's), and stolen by the host (a virtual machine's neighbours).
    machine: tuple[float, float] = (0.0, 0.0)
    #: The machine's load average over the last minute, before the warm-up and after the load.
    load_average: tuple[float, float] = (0.0, 0.0)
    version_in_address: bool = False  # the live polls named their version as ?version=
    #: Each tournament's lags (seconds) from a save to its ranking showing it (``ranking_probe``).
    follow: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    live: str = "poll"  # how the phones followed their evening (``load_scenarios.LIVE``)
    streams: StreamFigures | None = None  # the phones' event streams (``--live events``)

    @property
    def workers_cpu(self) -> dict[str, float]:
        """The app's CPU seconds during the load: gunicorn's tree, uvicorn's, both."""
        gunicorn, uvicorn = self.cpu[0], self.cpu[2] if len(self.cpu) > 2 else 0.0
        return {"gunicorn": gunicorn, "uvicorn": uvicorn, "workers": gunicorn + uvicorn}

    def served(self) -> int:
        """The requests answered during the load, every kind together."""
        return sum(kind.result.get("requests", 0) for kind in self.kinds)

    def seconds(self) -> float:
        return max((kind.result.get("seconds", 0.0) for kind in self.kinds), default=0.0) or 1.0

    def ms_per_request(self) -> dict[str, float]:
        """CPU milliseconds per request answered: gunicorn's workers' (with the master), and
        PostgreSQL's."""
        served = max(self.served(), 1)
        return {
            **{name: 1000 * seconds / served for name, seconds in self.workers_cpu.items()},
            "postgresql": 1000 * self.cpu[1] / served,
        }

    def per_second(self) -> dict[str, float]:
        """CPU seconds a second of the load (cores): the workers', and PostgreSQL's."""
        seconds = self.seconds()
        return {
            **{name: spent / seconds for name, spent in self.workers_cpu.items()},
            "postgresql": self.cpu[1] / seconds,
        }

    def deals_saved(self) -> int:
        """The deals saved during the load (every "deal save" kind's 200s)."""
        return sum(
            int(kind.result.get("statuses", {}).get("200", 0))
            for kind in self.kinds
            if kind.name.endswith("deal save")
        )

    def stream_problems(self) -> list[str]:
        """What went wrong with the event streams (none with polls)."""
        if self.live != "events" or self.streams is None:
            return []
        problems = []
        if self.streams.refused:
            statuses = ", ".join(f"{s}: {n}" for s, n in sorted(self.streams.statuses.items()))
            problems.append(
                f"{self.streams.refused} of {self.streams.phones} event streams were refused "
                f"(answers {statuses}; 204: no events server, or it holds its most streams)"
            )
        if self.deals_saved() and not self.streams.versions:
            problems.append(
                f"{self.deals_saved()} deals were saved and no stream heard a new version"
            )
        return problems

    def worst_p95_ms(self) -> float:
        """The slowest p95 of the kinds with figures, the login page (the yardstick) apart."""
        return max(
            (
                kind.result["p95"] / 1000
                for kind in self.kinds
                if kind.result and kind.name != "login page"
            ),
            default=0.0,
        )

    def as_json(self, tables: int, duration: int) -> dict[str, Any]:
        return {
            "tables": tables,
            "duration": duration,
            "redis": self.redis,
            "version_in_address": self.version_in_address,
            "dates": self.dates,
            "figures": self.figures,
            "seating": self.seating,
            "scenario": self.scenario,
            "clubs": self.clubs,
            "tournament_tables": self.tournament_tables,
            "kinds": [{"name": kind.name, **kind.result} for kind in self.kinds],
            "worst_p95_ms": self.worst_p95_ms(),
            "requests": self.served(),
            "cpu_seconds": {
                **self.workers_cpu,
                "postgresql": self.cpu[1],
                "machine busy": self.machine[0],
                "machine stolen": self.machine[1],
            },
            "cpu_ms_per_request": self.ms_per_request(),
            "cpu_per_second": self.per_second(),
            "live": self.live,
            "streams": self.streams.as_json() if self.streams is not None else None,
            "deals_saved": self.deals_saved(),
            "load_average": {"before": self.load_average[0], "after": self.load_average[1]},
            "ranking_follows_s": self.follow,
        }


def check_machine() -> str:
    """wrk's path, once wrk, nginx and a PostgreSQL database are known to be there."""
    wrk = shutil.which("wrk")
    if wrk is None:
        raise CommandError("wrk is missing: apt-get install -y wrk")
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        raise CommandError("nginx is missing: apt-get install -y nginx")
    url = str(settings.DATABASES["default"].get("ENGINE", ""))
    if "postgresql" not in url:
        raise CommandError(
            "set DATABASE_URL to a postgres:// database (the load test's sits next to it)"
        )
    return wrk


def run_loadtest(
    wrk: str,
    *,
    tables: int,
    duration: int,
    deals: int,
    workers: int | None,
    no_redis: bool,
    say: Callable[[str], None],
    scenario: str = "night",
    version_in_address: bool = False,
    dates: str = "night",
    figures: bool = False,
    seating: str = "club",
    tournament_tables: int = TOURNAMENT_TABLES,
    live: str = "events",
) -> LoadRun:
    """``tables`` tables playing for ``duration`` seconds; ``say`` is told how far it got.

    ``scenario`` (``SCENARIOS``): ``night``, clubs of 3 to 8 tables each and a tournament of
    ``tournament_tables`` tables (``load_night``; ``deals``: each club's); ``one-club``,
    one club's evenings in progress; ``tournament``, a round's last deals
    (``load_tournament``). ``version_in_address``: the live polls name their version in the
    address too (``?version=``, as pages did before ``If-None-Match``: to drive an older app).
    For one club: ``dates``, the tables' evenings on one club night or each on its own date,
    and ``seating``, the tables' players, their own or the club's (``load_club.build_tables``).
    ``figures``: the clubs' figures pages looked at too (``load_scenarios.kinds``).
    ``live`` (``load_scenarios.LIVE``): events, every phone holds an event stream through
    uvicorn (the app's ``scorekeeper.asgi``) and fetches the rows after a deal; poll, the
    phones poll every 4 s (an app before the event streams)."""
    if live not in LIVE:
        raise ValueError(f"live: {live!r}, not one of {LIVE}")
    base_url = database_url(settings.DATABASES["default"])
    secret_key = secrets.token_urlsafe(40)
    started = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="scorekeeper-loadtest-") as folder,
        local_servers.postgres_database(base_url, "loadtest") as url,
        local_servers.redis_server() as redis_url_found,
    ):
        redis_url = None if no_redis else redis_url_found
        say(f"Building {deals} deals and {tables} tables ({scenario})…")
        with connected_to(url):
            plan = _build(
                scenario, deals, tables, secret_key, dates, figures, seating, tournament_tables,
                live,
            )  # fmt: skip
        environ = local_servers.server_environment(
            database_url=url,
            redis_url=redis_url,
            secret_key=secret_key,
            static_root=str(Path(folder) / "static"),
        )
        port = local_servers.free_port()
        server = local_servers.gunicorn(port, environ, workers)
        events: subprocess.Popen[Any] | None = None
        try:
            local_servers.wait_until_up(f"http://127.0.0.1:{port}/healthz", process=server)
            events_port = None
            if live == "events":
                events_port = local_servers.free_port()
                events = local_servers.uvicorn(events_port, environ)
                _wait_for_events_server(events_port, events)
            with documented_nginx.in_front_of([port], events=events_port) as proxy:
                origin = f"http://127.0.0.1:{proxy}"
                say(
                    f"Ready in {time.monotonic() - started:.0f} s; warming up"
                    f"{', opening the streams' if plan.streams else ''}, then {duration} s "
                    "of load…"
                )
                load_before = os.getloadavg()[0]
                sent, cpu, machine, lags, held = _load(
                    wrk, origin, url, (server, events), plan, duration, folder,
                    version_in_address, say,
                )  # fmt: skip
                load_after = os.getloadavg()[0]
        finally:
            if events is not None:
                local_servers.stop(events)
            local_servers.stop(server)
    return LoadRun(
        sent,
        redis=redis_url is not None,
        cpu=cpu,
        load_average=(load_before, load_after),
        version_in_address=version_in_address,
        dates=dates,
        figures=figures,
        seating=seating,
        machine=machine,
        scenario=scenario,
        clubs=plan.clubs,
        tournament_tables=plan.tournament_tables,
        follow=lags,
        live=live,
        streams=held,
    )


def _wait_for_events_server(port: int, process: subprocess.Popen[Any]) -> None:
    try:
        local_servers.wait_until_up(f"http://127.0.0.1:{port}/healthz", process=process)
    except RuntimeError as error:
        raise CommandError(
            f"the events server (uvicorn scorekeeper.asgi) did not start: {error}; an app "
            "before the event streams is driven with --live poll"
        ) from None


@dataclass
class _Plan:
    """What a scenario sends (``kinds``) and the warm-up before it (``warm_up(origin)``)."""

    kinds: Callable[[], list[Kind]]
    warm_up: Callable[[str], None]
    clubs: int = 1
    tournament_tables: int = 0
    probes: list[Probe] = dataclasses.field(default_factory=list)  # rankings timed meanwhile
    #: The phones' event streams held during the load (``--live events``): address, cookie.
    streams: list[tuple[str, str]] = dataclasses.field(default_factory=list)


def _build(
    scenario: str,
    deals: int,
    tables: int,
    secret_key: str,
    dates: str,
    figures: bool,
    seating: str,
    tournament_tables: int,
    live: str,
) -> _Plan:
    held = live == "events"
    if scenario == "night":
        night = build_night(deals, tables, secret_key, tournament_tables=tournament_tables)
        return _Plan(
            lambda: night_kinds(night, figures=figures, live=live),
            lambda o: night_warm_up(o, night, figures=figures),
            night.clubs,
            tournament_tables,
            streams=night_streams(night) if held else [],
        )
    if scenario == "tournament":
        loads = build_tournaments(deals, tables, secret_key)
        return _Plan(
            lambda: tournaments_kinds(loads, live=live),
            lambda o: tournaments_warm_up(o, loads),
            0,
            probes=[load.probe for load in loads if load.probe is not None],
            streams=[phone for load in loads for phone in tournament_streams(load)] if held else [],
        )
    if scenario != "one-club":
        raise ValueError(f"scenario: {scenario!r}, not one of {SCENARIOS}")
    _built, seats = build_tables(deals, tables, secret_key, dates=dates, seating=seating)
    return _Plan(
        lambda: kinds(seats, figures=figures, live=live),
        lambda o: warm_up(o, seats, figures=figures),
        streams=streams(seats) if held else [],
    )


def _load(
    wrk: str,
    origin: str,
    url: str,
    servers: tuple[subprocess.Popen[Any], subprocess.Popen[Any] | None],
    plan: _Plan,
    duration: int,
    folder: str,
    version_in_address: bool,
    say: Callable[[str], None],
) -> tuple[
    list[Kind], list[float], tuple[float, float], dict[str, list[float]], StreamFigures | None
]:
    """The servers warmed up and the phones' streams opened, then the load, with the CPU it
    cost each server (gunicorn, PostgreSQL, uvicorn), the whole machine's busy and stolen
    seconds meanwhile, the plan's rankings' lags behind a save (timed by a thread of this
    process during the load), and what the streams did (held by another)."""
    gunicorn, uvicorn = servers
    plan.warm_up(origin)
    scenario = plan.kinds()
    held = None
    if plan.streams:
        held = Streams(origin, plan.streams)
        held.start()
        opened = held.wait_open(OPENING_SECONDS)
        say(
            f"{opened} of {len(plan.streams)} streams open in "
            f"{held.figures.seconds_to_open or OPENING_SECONDS:.1f} s"
        )
    # PostgreSQL's whole server: backends close and open during the load
    # (their CPU then shows in the postmaster's reaped children).
    backend = local_servers.postgres_backends(url)[0]
    postmaster = local_servers.parent_pid(backend)
    pids = (gunicorn.pid, postmaster, *([uvicorn.pid] if uvicorn is not None else []))
    try:
        before, machine_before = _cpu_seconds(*pids), local_servers.machine_cpu_seconds()
        lags: dict[str, list[float]] = {}
        probing = threading.Thread(
            target=lambda: lags.update(follow(origin, plan.probes, duration))
        )
        probing.start()
        run_wrk(
            wrk, origin, scenario, duration, Path(folder), version_in_address=version_in_address
        )
        probing.join()
        after, machine_after = _cpu_seconds(*pids), local_servers.machine_cpu_seconds()
    finally:
        figures = held.stop() if held is not None else None
    cpu = [b - a for a, b in zip(before, after, strict=True)]
    cpu += [0.0] * (3 - len(cpu))  # no uvicorn: none of its CPU
    busy, stolen = (b - a for a, b in zip(machine_before, machine_after, strict=True))
    return scenario, cpu, (busy, stolen), lags, figures


def _cpu_seconds(*pids: int) -> list[float]:
    """The CPU time so far of each process with its children, reaped ones included."""
    return [local_servers.tree_cpu_seconds(pid) for pid in pids]
