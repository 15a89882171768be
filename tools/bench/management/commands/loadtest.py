"""`manage.py loadtest`: many tables at once, through gunicorn on PostgreSQL, with wrk.

On loopback only: a database of its own next to DATABASE_URL's (``<name>_loadtest``,
dropped at the end), a Redis of its own when ``redis-server`` is installed, gunicorn with the
project's gunicorn.conf.py and DEBUG off. It builds a club with ``--deals`` deals (as
``manage.py benchmark`` does) and ``--tables`` evenings in progress, then simulates each table
for ``--duration`` seconds: a deal saved every 2 minutes, five phones following the evening
(a poll every 4 s, 304 when nothing changed, the new sheet after a deal), the scorer's page
reloaded after each save, now and then someone looking at the season; the login page is
requested alongside as the yardstick. wrk (Debian's package) sends the requests, a process
per kind of request, each connection waiting between requests as a phone would; the table
gives p50/p95/p99 and req/s per kind, and each p50 as a multiple of the login page's.

``--scenario tournament`` plays a tournament's round ending instead: ``--tables`` tables of 4
(50 by default: 200 players) seated by the services with all their deals but the last; each
table's phone (a table link's session, not signed in) saves the last deal, every table
within a minute, reloads and polls its table, while 50 phones follow the public ranking
(a poll every 4 s) and the organiser follows the tournament's page (``bench.load_tournament``).

It is a benchmark, not a test: run it on a quiet machine (other work on the same cores makes
every figure worse). The machinery is in ``tools.bench``; this command
parses and prints.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tools.bench.load_club import DATES, SEATINGS
from tools.bench.load_run import (
    TARGET_P95_MS,
    LoadRun,
    check_machine,
    run_loadtest,
)
from tools.bench.load_scenarios import Kind


class Command(BaseCommand):
    help = (
        "Simulate many tables against gunicorn on PostgreSQL (and Redis when installed) on "
        "127.0.0.1 with wrk, and print p50/p95/p99 and req/s per kind of request."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--scenario",
            choices=["tables", "tournament"],
            default="tables",
            help="tables: evenings in progress; tournament: a round's last deals saved within "
            "a minute while 50 phones follow the ranking",
        )
        parser.add_argument(
            "--tables", type=int, help="tables playing (200; a tournament's: 50, 200 players)"
        )
        parser.add_argument("--duration", type=int, default=60, help="seconds of load (60)")
        parser.add_argument("--deals", type=int, default=10_000, help="deals built (10000)")
        parser.add_argument("--workers", type=int, help="gunicorn workers (gunicorn.conf.py)")
        parser.add_argument("--no-redis", action="store_true", help="each worker its own cache")
        parser.add_argument(
            "--no-poll-server",
            action="store_true",
            help="the live polls to gunicorn too, with no process of their own (to compare)",
        )
        parser.add_argument(
            "--dates",
            choices=DATES,
            default="night",
            help="night: every table on one club night (the default); spread: each table on "
            "a date of its own, every save a change to a settled evening (the reads' worst case)",
        )
        parser.add_argument(
            "--seating",
            choices=SEATINGS,
            default="club",
            help="club: the club's 12 players in turn at every table (the default, as in every "
            "earlier load); own: each table its own players, as on a real night",
        )
        parser.add_argument(
            "--figures",
            action="store_true",
            help="tables: the club's ratings, head to head and records looked at too, as "
            "often as the season",
        )
        parser.add_argument("--json", dest="json_path", help="also write the figures here")

    def handle(self, *args: Any, **options: Any) -> None:
        tables, duration = options["tables"], options["duration"]
        if tables is None:
            tables = 50 if options["scenario"] == "tournament" else 200
        if not 1 <= tables <= 2000:
            raise CommandError("--tables: from 1 to 2000")
        if not 5 <= duration <= 900:
            raise CommandError("--duration: from 5 to 900 seconds")
        wrk = check_machine()
        load = run_loadtest(
            wrk,
            tables=tables,
            duration=duration,
            deals=options["deals"],
            workers=options["workers"],
            no_redis=options["no_redis"],
            say=self.stderr.write,
            scenario=options["scenario"],
            poll_server=not options["no_poll_server"],
            dates=options["dates"],
            figures=options["figures"],
            seating=options["seating"],
        )
        self.report(load, tables, duration, options)
        if options["json_path"]:
            text = json.dumps(load.as_json(tables, duration), indent=2) + "\n"
            Path(options["json_path"]).write_text(text)

    def report(self, load: LoadRun, tables: int, duration: int, options: dict[str, Any]) -> None:
        kinds, cpu = load.kinds, load.cpu
        login = next(kind for kind in kinds if kind.name == "login page")
        base = login.result.get("p50", 0) / 1000 or 1.0
        workers = options["workers"] or "gunicorn.conf.py's"
        what = {"night": "tables on one night", "spread": "tables on a date each"}[options["dates"]]
        if options["scenario"] == "tournament":
            what = "tournament tables"
        else:
            what += {"own": ", each its own players", "club": ", the club's 12 players"}[
                load.seating
            ]
            if load.figures:
                what += " (the club's figures looked at too)"
        polls = "the poll process" if load.poll_server else "no poll process"
        self.stdout.write(
            f"{tables} {what}, {duration} s, {options['deals']} deals built; gunicorn "
            f"{workers} workers, {polls}, PostgreSQL, "
            f"{'Redis' if load.redis else 'a cache per worker'}"
        )
        self.stdout.write(
            f"{'request':<22} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} "
            f"{'p99 ms':>7} {'× login':>7}  statuses"
        )
        for kind in kinds:
            self.stdout.write(self.row(kind, base))
        worst = load.worst_p95_ms()
        verdict = "ok" if worst < TARGET_P95_MS else "MISSED"
        self.stdout.write(f"worst p95 {worst:.1f} ms (target < {TARGET_P95_MS:g} ms): {verdict}")
        served = sum(kind.result.get("requests", 0) for kind in kinds)
        seconds = max((kind.result.get("seconds", 0.0) for kind in kinds), default=0.0) or 1.0
        self.stdout.write(
            f"CPU during the load: gunicorn {cpu[0]:.1f} s ({cpu[0] / seconds:.2f} cores), "
            f"the poll process {cpu[2]:.1f} s ({cpu[2] / seconds:.2f} cores), "
            f"PostgreSQL {cpu[1]:.1f} s ({cpu[1] / seconds:.2f} cores); "
            f"{1000 * sum(cpu) / max(served, 1):.2f} ms a request on average"
        )
        busy, stolen = load.machine
        self.stdout.write(
            f"The machine meanwhile: {busy / seconds:.2f} cores busy (the servers above, wrk, "
            f"nginx and anything else), {stolen / seconds:.2f} cores taken by the host (steal)"
        )

    def row(self, kind: Kind, base: float) -> str:
        """A kind's line of the table; p50 as a multiple of ``base``, the login page's."""
        result = kind.result
        if not result:
            return f"{kind.name:<22} (no figures: wrk failed)"
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
            f"{kind.name:<22} {result['requests']:>8} {rate:>7.1f} {p50:>7.1f} {p95:>7.1f} "
            f"{p99:>7.1f} {p50 / base:>7.2f}  {statuses}"
        )
