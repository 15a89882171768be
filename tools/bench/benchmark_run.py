"""One run of ``manage.py benchmark``: build the synthetic club in a throw-away SQLite file,
time the pages and the imports, and hand back the figures (the project's database is never
opened).
"""

from __future__ import annotations

import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import django.test.signals  # noqa: F401  (resets the template engines with DEBUG)

from tools.bench.databases import throwaway_database
from tools.bench.figures_bench import measure_figures
from tools.bench.imports import ImportTiming, measure_imports
from tools.bench.pages import Timing, bench_settings, measure
from tools.bench.synthetic_club import build


@dataclass
class Figures:
    deals: int
    bare: Timing
    minimal: Timing
    pages: list[Timing]  # with a target
    info: list[Timing]  # for information
    imports: list[ImportTiming]
    replay: Timing | None = None  # the ratings after an old evening changed (target: 2 s)
    notes: list[str] = field(default_factory=list)  # the ratings' prediction figure

    def as_json(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "bare_ms": round(self.bare.median_ms, 3),
            "minimal_ms": round(self.minimal.median_ms, 3),
            "pages": [_timing_json(page) for page in self.pages],
            "imports": [
                {"name": row.name, "deals": row.deals, "seconds": round(row.seconds, 3)}
                for row in self.imports
            ],
            "info": [_timing_json(timing) for timing in self.info],
            "replay": _timing_json(self.replay) if self.replay else None,
            "notes": self.notes,
        }


def run_benchmark(deals: int, repeat: int, say: Callable[[str], None]) -> Figures:
    """The figures of ``deals`` deals, each page requested ``repeat`` times; ``say`` is told
    how far it got."""
    with (
        warnings.catch_warnings(),
        tempfile.TemporaryDirectory(prefix="scorekeeper-benchmark-") as folder,
        throwaway_database(Path(folder) / "benchmark.sqlite3"),
        bench_settings(),
    ):
        warnings.filterwarnings("ignore", message="No directory at")
        say(f"Building {deals} deals…")
        started = time.perf_counter()
        built = build(deals)
        say(f"Built in {time.perf_counter() - started:.1f} s; timing…")
        bare, minimal, pages, info = measure(built, repeat)
        say("Timing the club figures…")
        figures_pages, replay, notes = measure_figures(built, repeat)
        pages.extend(figures_pages)
        say("Timing the imports…")
        imports = measure_imports(deals, built.club_id, built.user_id)
    for page in [*pages, *info]:
        reference = page.minimal_ms or minimal.median_ms  # the minimal page of its turns
        page.ratio = page.median_ms / reference if reference else 0.0
    return Figures(deals, bare, minimal, pages, info, imports, replay, notes)


def _timing_json(timing: Timing) -> dict[str, Any]:
    return {
        "name": timing.name,
        "median_ms": round(timing.median_ms, 3),
        "ratio": round(timing.ratio, 3),
        "minimal_ms": round(timing.minimal_ms, 3),
        "queries": timing.queries,
    }
