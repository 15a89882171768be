"""`manage.py benchmark`: time the main pages in-process against a synthetic club.

A throw-away SQLite database (a temporary file) holds a club of 12 players with, by default,
200 evenings of 50 deals (10,000 deals) in one season; the project's own database is never
opened. Each page is requested ``--repeat`` times by a signed-in member through the whole
middleware, with django.test.Client; the table gives the median time, its ratio to the
minimal page (base.html with an empty body) and the SQL queries of one request.

The machinery is in ``tools.bench``; this command parses and prints.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tools.bench.benchmark_run import Figures, run_benchmark
from tools.bench.figures_bench import REPLAY_SECONDS
from tools.bench.imports import SECONDS_TARGET
from tools.bench.synthetic_club import DEALS_PER_EVENING


class Command(BaseCommand):
    help = (
        "Time the evening page, a deal preview and save, the season standings, a player's "
        "page and a counter update against a synthetic club in a throw-away SQLite database."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--deals", type=int, default=10_000, help="deals (default 10000)")
        parser.add_argument("--repeat", type=int, default=30, help="requests per page (30)")
        parser.add_argument("--json", dest="json_path", help="also write the figures here")

    def handle(self, *args: Any, **options: Any) -> None:
        deals, repeat = options["deals"], options["repeat"]
        if deals < DEALS_PER_EVENING:
            raise CommandError(f"--deals: at least {DEALS_PER_EVENING}")
        if repeat < 1:
            raise CommandError("--repeat: at least 1")
        figures = run_benchmark(deals, repeat, self.stderr.write)
        self.print_table(figures, repeat)
        if options["json_path"]:
            text = json.dumps(figures.as_json(), indent=2) + "\n"
            Path(options["json_path"]).write_text(text)

    def print_table(self, figures: Figures, repeat: int) -> None:
        bare, minimal = figures.bare, figures.minimal
        self.stdout.write(f"{figures.deals} deals, median of {repeat} requests\n")
        self.stdout.write(
            "× minimal: against the minimal page timed in turns with the row "
            "(its median in brackets)"
        )
        self.stdout.write(
            f"{'page':<28} {'median ms':>10} {'× minimal':>10} {'(minimal)':>10} "
            f"{'queries':>8}  target"
        )
        rows = [(bare, bare.median_ms / minimal.median_ms if minimal.median_ms else 0.0, "")]
        rows.append((minimal, 1.0, ""))
        for page in figures.pages:
            verdict = "ok" if page.ratio <= page.limit else "MISSED"
            rows.append((page, page.ratio, f"≤ {page.limit:g}× {verdict}"))
        rows.extend((timing, timing.ratio, "(for information)") for timing in figures.info)
        for timing, ratio, target in rows:
            paired = f"({timing.minimal_ms:.2f})" if timing.minimal_ms else ""
            self.stdout.write(
                f"{timing.name:<28} {timing.median_ms:>10.2f} {ratio:>10.2f} {paired:>10} "
                f"{timing.queries:>8}  {target}"
            )
        replay = figures.replay
        if replay is not None:
            verdict = "ok" if replay.median_ms < REPLAY_SECONDS * 1000 else "MISSED"
            self.stdout.write(
                f"{replay.name:<28} {replay.median_ms:>10.0f} {'':>10} {'':>10} "
                f"{replay.queries:>8}  "
                f"< {REPLAY_SECONDS:g} s {verdict}"
            )
        for row in figures.imports:
            self.stdout.write(
                f"{row.name:<28} {row.seconds * 1000:>10.0f} {'':>10} {'':>10} {'':>8}  "
                f"< {SECONDS_TARGET:g} s {row.verdict}"
            )
        for note in figures.notes:
            self.stdout.write(f"ratings: {note}")
