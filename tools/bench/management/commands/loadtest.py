"""`manage.py loadtest`: a club night's tables at once, through gunicorn on PostgreSQL, with wrk.

On loopback only: a database of its own next to DATABASE_URL's (``<name>_loadtest``,
dropped at the end), a Redis of its own when ``redis-server`` is installed, gunicorn with the
project's gunicorn.conf.py and DEBUG off, behind the nginx site of docs/operations.md.

The default load is a real night (``--scenario night``, ``tools.bench.load_night``):
``--tables`` tables (300) of clubs playing 3 to 8 tables each (60 clubs), each club with its
own members, players and history (``--deals`` deals each, 1000), nobody at two tables; and a
club's tournament of ``--tournament-tables`` tables (20). For ``--duration`` seconds each table
saves a deal every 2 minutes, five phones follow its evening (``--live events``, the default:
an event stream each through uvicorn, held open during the whole load, and the new rows
fetched after a deal by the four phones that did not save it; ``--live poll``: a poll every
4 s with If-None-Match, 304 when nothing changed, the new rows after a deal), the scorer's page is
reloaded after each save, now and then someone looks at the club's season; phones follow the
tournament's ranking and its organiser its page; the login page is requested alongside as the
yardstick. wrk (Debian's package) sends the requests, a process per kind of request, each
connection waiting between requests as a phone would; the table gives p50/p95/p99 and req/s
per kind, and each p50 as a multiple of the login page's.

``--scenario one-club`` is the earlier load, for comparison only: one club with ``--deals``
deals (10000) and ``--tables`` evenings in progress (200), seated from its 12 players
(``--seating``) on one night (``--dates``). ``--scenario tournament`` plays a club's
tournaments ending a round (``load_tournament``): free deals and duplicate, ``--tables``
tables of 4 (50) each, every table saving a deal a minute, their rankings followed; it
times how soon each ranking shows a save (``ranking_probe``).

It is a benchmark, not a test: run it on a quiet machine (other work on the same cores makes
every figure worse). The machinery is in ``tools.bench``; this command parses and prints.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tools.bench.load_club import DATES, SEATINGS
from tools.bench.load_night import TOURNAMENT_TABLES
from tools.bench.load_run import (
    SCENARIOS,
    TARGET_P95_MS,
    LoadRun,
    check_machine,
    run_loadtest,
)
from tools.bench.load_scenarios import LIVE, Kind
from tools.bench.ranking_probe import LIVE_SECONDS, shown_within

FOLLOW_TARGET_S = 5.0  # a tournament's ranking shows a save within this, on its page


class Command(BaseCommand):
    help = (
        "Simulate many tables against gunicorn on PostgreSQL (and Redis when installed) on "
        "127.0.0.1 with wrk, and print p50/p95/p99 and req/s per kind of request."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--scenario",
            choices=SCENARIOS,
            default="night",
            help="night (the default): clubs of 3 to 8 tables each, every club its own "
            "players, and a tournament; one-club: one club's tables, as in the earlier loads "
            "(for comparison only); tournament: a club's tournaments (free deals, duplicate) "
            "ending a round, every table saving a deal a minute while 50 phones follow each "
            "ranking, and how soon the ranking shows a save",
        )
        parser.add_argument(
            "--tables",
            type=int,
            help="tables playing (night: the clubs' 300; one-club: 200; tournament: 50 of "
            "each kind)",
        )
        parser.add_argument(
            "--tournament-tables",
            type=int,
            default=TOURNAMENT_TABLES,
            help=f"night: the tournament's tables, besides the clubs' ({TOURNAMENT_TABLES}; "
            "0: no tournament)",
        )
        parser.add_argument("--duration", type=int, default=60, help="seconds of load (60)")
        parser.add_argument(
            "--deals",
            type=int,
            help="deals built (night: each club's history, 1000; else the club's, 10000)",
        )
        parser.add_argument("--workers", type=int, help="gunicorn workers (gunicorn.conf.py)")
        parser.add_argument("--no-redis", action="store_true", help="each worker its own cache")
        parser.add_argument(
            "--version-in-address",
            action="store_true",
            help="the live polls name their version as ?version= too, as pages did before "
            "If-None-Match: to drive an older app for a comparison (tools/bench/compare_main.py)",
        )
        parser.add_argument(
            "--dates",
            choices=DATES,
            default="night",
            help="one-club: night, every table on one club night (the default); spread, each "
            "table on a date of its own, every save a change to a settled evening",
        )
        parser.add_argument(
            "--seating",
            choices=SEATINGS,
            default="club",
            help="one-club: club, the club's 12 players in turn at every table (the default, "
            "as in every earlier load); own, each table its own players",
        )
        parser.add_argument(
            "--figures",
            action="store_true",
            help="night, one-club: the clubs' ratings, head to head and records looked at too, "
            "as often as the season",
        )
        parser.add_argument(
            "--live",
            choices=LIVE,
            default="events",
            help="how the phones follow their evening: events (the default), an event stream "
            "each through uvicorn (scorekeeper.asgi), the new rows fetched after a deal; poll, "
            "a poll every 4 s, as the pages without the events server and an app before it",
        )
        parser.add_argument("--json", dest="json_path", help="also write the figures here")

    def handle(self, *args: Any, **options: Any) -> None:
        scenario, tables, duration = options["scenario"], options["tables"], options["duration"]
        if tables is None:
            tables = {"night": 300, "one-club": 200, "tournament": 50}[scenario]
        if options["deals"] is None:
            options["deals"] = 1000 if scenario == "night" else 10_000
        if not 1 <= tables <= 2000:
            raise CommandError("--tables: from 1 to 2000")
        if not 0 <= options["tournament_tables"] <= 200:
            raise CommandError("--tournament-tables: from 0 to 200")
        if not 5 <= duration <= 900:
            raise CommandError("--duration: from 5 to 900 seconds")
        if options["deals"] < 1:
            raise CommandError("--deals: at least 1")
        wrk = check_machine()
        load = run_loadtest(
            wrk,
            tables=tables,
            duration=duration,
            deals=options["deals"],
            tournament_tables=options["tournament_tables"],
            workers=options["workers"],
            no_redis=options["no_redis"],
            say=self.stderr.write,
            scenario=scenario,
            version_in_address=options["version_in_address"],
            dates=options["dates"],
            figures=options["figures"],
            seating=options["seating"],
            live=options["live"],
        )
        self.report(load, tables, duration, options)
        if options["json_path"]:
            text = json.dumps(load.as_json(tables, duration), indent=2) + "\n"
            Path(options["json_path"]).write_text(text)
        problems = load.stream_problems()
        if problems:
            raise CommandError("; ".join(problems))

    def report(self, load: LoadRun, tables: int, duration: int, options: dict[str, Any]) -> None:
        kinds, cpu = load.kinds, load.cpu
        login = next(kind for kind in kinds if kind.name == "login page")
        base = login.result.get("p50", 0) / 1000 or 1.0
        workers = options["workers"] or "gunicorn.conf.py's"
        what = {"night": "tables on one night", "spread": "tables on a date each"}[options["dates"]]
        deals = f"{options['deals']} deals built"
        if load.scenario == "night":
            what = f"tables of {load.clubs} clubs"
            if load.tournament_tables:
                what += f" and a tournament of {load.tournament_tables} tables"
            deals = f"{options['deals']} deals built in each club"
        elif load.scenario == "tournament":
            what = f"tables in each tournament ({', '.join(load.follow) or 'free'})"
        else:
            what += {"own": ", each its own players", "club": ", the club's 12 players"}[
                load.seating
            ]
        if load.figures and load.scenario != "tournament":
            what += " (the clubs' figures looked at too)"
        following = {"events": "event streams (uvicorn)", "poll": "polls"}[load.live]
        self.stdout.write(
            f"{tables} {what}, {duration} s, {deals}; gunicorn "
            f"{workers} workers, PostgreSQL, "
            f"{'Redis' if load.redis else 'a cache per worker'}; phones follow by {following}"
        )
        self.stdout.write(
            f"{'request':<26} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} "
            f"{'p99 ms':>7} {'× login':>7}  statuses"
        )
        for kind in kinds:
            self.stdout.write(self.row(kind, base))
        worst = load.worst_p95_ms()
        verdict = "ok" if worst < TARGET_P95_MS else "MISSED"
        self.stdout.write(f"worst p95 {worst:.1f} ms (target < {TARGET_P95_MS:g} ms): {verdict}")
        seconds = load.seconds()
        per_request, per_second = load.ms_per_request(), load.per_second()
        spent = {**load.workers_cpu, "postgresql": cpu[1]}
        names = ["workers", "gunicorn", "uvicorn", "postgresql"]
        if load.live != "events":
            names = ["gunicorn", "postgresql"]
        self.stdout.write(
            "CPU during the load: "
            + ", ".join(
                f"{name} {spent[name]:.1f} s ({per_second[name]:.2f} cores, "
                f"{per_request[name]:.2f} ms a request)"
                for name in names
            )
        )
        if load.streams is not None:
            held = load.streams
            self.stdout.write(
                f"Event streams: {held.phones} phones, {held.opened} opened (all in "
                f"{held.seconds_to_open:.1f} s, before the load), {held.refused} refused, "
                f"{held.dropped} dropped, {held.open_at_end} open at the end; "
                f"{held.versions} version events during the load ({load.deals_saved()} deals "
                "saved)"
            )
        for name, lags in load.follow.items():
            within = shown_within(lags)
            verdict = "ok" if lags and within <= FOLLOW_TARGET_S else "MISSED"
            self.stdout.write(
                f"{name} ranking after a save: {len(lags)} saves, median "
                f"{statistics.median(lags or [0]):.2f} s, worst {max(lags, default=0):.2f} s; "
                f"on a page polling every {LIVE_SECONDS} s within {within:.1f} s "
                f"(target {FOLLOW_TARGET_S:g} s): {verdict}"
            )
        busy, stolen = load.machine
        before, after = load.load_average
        self.stdout.write(
            f"The machine meanwhile: {busy / seconds:.2f} cores busy (the servers above, wrk, "
            f"nginx and anything else), {stolen / seconds:.2f} cores taken by the host (steal); "
            f"load average {before:.2f} before, {after:.2f} after"
        )

    def row(self, kind: Kind, base: float) -> str:
        """A kind's line of the table; p50 as a multiple of ``base``, the login page's."""
        result = kind.result
        if not result:
            return f"{kind.name:<26} (no figures: wrk failed)"
        p50, p95, p99 = (result[key] / 1000 for key in ("p50", "p95", "p99"))
        rate = result["requests"] / result["seconds"] if result["seconds"] else 0.0
        statuses = " ".join(f"{k}:{v}" for k, v in sorted(result["statuses"].items()))
        unexpected = sum(
            n for status, n in result["statuses"].items() if int(status) not in kind.expect
        )
        if unexpected:
            statuses += f" UNEXPECTED:{unexpected}"
        if result["errors"] or result["timeouts"]:
            statuses += f" errors:{result['errors']} timeouts:{result['timeouts']}"
        return (
            f"{kind.name:<26} {result['requests']:>8} {rate:>7.1f} {p50:>7.1f} {p95:>7.1f} "
            f"{p99:>7.1f} {p50 / base:>7.2f}  {statuses}"
        )
