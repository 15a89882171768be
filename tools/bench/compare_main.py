"""The same load against an older commit's app and this checkout's, on the same machine, in
turns: worker CPU per request and every p95, side by side (issue 37: "Worker CPU per request
no higher than today's main, both measured on the same machine the same day").

    DATABASE_URL=postgres://… .venv/bin/python tools/bench/compare_main.py [--old f04a89f]
        [--runs 3] [--duration 30] [--json out.json] [-- loadtest arguments]

The older app is ``git archive``'d into a temporary folder (nothing in the repository
changes) and driven by this checkout's load test: ``manage.py loadtest`` run in that folder
with its own settings and this ``tools.bench`` installed ahead of its apps
(``driving_settings``), so the same night (``--scenario night`` by default: 60 clubs of 3 to 8
tables and a 20-table tournament) is built by that app's own services in a database migrated
by its own migrations, and gunicorn runs its code and gunicorn.conf.py behind the same nginx
site (this checkout's docs/operations.md). Its phones poll (``--live poll``: it has no event
streams), naming their version in the address too (``--version-in-address``): pages before
the conditional GET asked that way, and it would answer every poll in full without it. This
checkout's phones hold event streams through uvicorn (``--live events``). An app older than
f04a89f may lack what the night's builder calls: then ``--scenario one-club`` (after ``--``)
is the comparable load.

The runs alternate (old, new, then new, old, ...) so that the machine's other work falls on
both; each run's load average and busy cores are printed with it. Worker CPU is gunicorn's
(master and workers, reaped ones included) and uvicorn's, per request answered and per second
of the night (the same load, the same seconds: the streams are not requests), each apart too.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
OLD_MAIN = "f04a89f"  # main before the read model (issue 37)


def export(commit: str, folder: Path) -> Path:
    """The commit's files, ``git archive``'d into ``folder``."""
    archive = folder / "old.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", commit], cwd=ROOT, stdout=out, check=True)
    tree = folder / "app"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    archive.unlink()
    return tree


def run_once(tree: Path | None, args: list[str], json_path: Path, python: str) -> dict[str, Any]:
    """One ``manage.py loadtest`` (this checkout's when ``tree`` is None, else driving the
    app in ``tree``); its figures."""
    environ = {**os.environ, "DEBUG": "1"}
    environ.pop("DEV_TOOLS", None)
    command = [python, "manage.py", "loadtest", *args, "--json", str(json_path)]
    if tree is not None:
        environ["DJANGO_SETTINGS_MODULE"] = "tools.bench.driving_settings"
        environ["PYTHONPATH"] = os.pathsep.join(
            [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
        command += ["--version-in-address", "--live", "poll"]  # no event streams there
    else:
        environ.pop("DJANGO_SETTINGS_MODULE", None)
        if not any(arg.startswith("--live") for arg in args):
            command += ["--live", "events"]
    subprocess.run(command, cwd=tree or ROOT, env=environ, check=True)
    return dict(json.loads(json_path.read_text()))


def spread(values: list[float]) -> str:
    """The median, and the smallest and largest value when there are several."""
    if not values:
        return "-"
    middle = statistics.median(values)
    if len(values) == 1:
        return f"{middle:.2f}"
    return f"{middle:.2f} ({min(values):.2f}–{max(values):.2f})"


def summary(runs: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The comparison's lines: each run, then medians (with the spread) old against new."""
    lines = [
        f"{'run':<5} {'app':<4} {'live':<6} {'workers ms/req':>14} {'gunicorn':>8} "
        f"{'uvicorn':>7} {'workers cores':>13} {'PostgreSQL ms/req':>17} {'requests':>8} "
        f"{'worst p95':>9} {'busy cores':>10} {'load avg before/after':>22}"
    ]
    for app, figures in runs.items():
        for number, run in enumerate(figures, start=1):
            per, load = run["cpu_ms_per_request"], run["load_average"]
            busy = run["cpu_seconds"]["machine busy"] / max(run["duration"], 1)
            lines.append(
                f"{number:<5} {app:<4} {run.get('live', 'poll'):<6} "
                f"{_worker_ms(run, 'workers'):>14.2f} {per['gunicorn']:>8.2f} "
                f"{_worker_ms(run, 'uvicorn'):>7.2f} {_cores(run, 'workers'):>13.2f} "
                f"{per['postgresql']:>17.2f} {run['requests']:>8} {run['worst_p95_ms']:>9.1f} "
                f"{busy:>10.2f} {load['before']:>10.2f}/{load['after']:<11.2f}"
            )
    lines.append("")
    lines.append(f"{'median (min–max)':<28} {'old':>24} {'new':>24}")

    def row(name: str, pick: Any) -> str:
        old, new = (
            [found for run in runs[app] if (found := pick(run)) is not None]
            for app in ("old", "new")
        )
        return f"{name:<28} {spread(old):>24} {spread(new):>24}"

    for worker in ("workers", "gunicorn", "uvicorn"):
        lines.append(row(f"{worker} CPU ms/request", lambda r, w=worker: _worker_ms(r, w)))
    for worker in ("workers", "gunicorn", "uvicorn"):
        lines.append(row(f"{worker} CPU s a second", lambda r, w=worker: _cores(r, w)))
    lines.append(row("PostgreSQL CPU ms/request", lambda r: r["cpu_ms_per_request"]["postgresql"]))
    lines.append(row("worst p95 ms", lambda r: r["worst_p95_ms"]))
    kinds: list[str] = []
    for app in ("old", "new"):
        for run in runs[app][:1]:
            kinds += [kind["name"] for kind in run["kinds"] if kind["name"] not in kinds]
    for name in kinds:
        lines.append(row(f"p95 ms {name}", lambda r, n=name: _p95(r, n)))
    streams = [run["streams"] for run in runs["new"] if run.get("streams")]
    if streams:
        lines.append(
            row("streams open at the end", lambda r: (r.get("streams") or {}).get("open_at_end"))
        )
        lines.append(
            row("stream version events", lambda r: (r.get("streams") or {}).get("version_events"))
        )
    return lines


def _worker_ms(run: dict[str, Any], worker: str) -> float:
    """A worker's CPU ms a request (``workers``: gunicorn's and uvicorn's together); a run
    without uvicorn's figures had none."""
    per = run["cpu_ms_per_request"]
    if worker == "workers":
        return float(per.get("workers", per["gunicorn"] + per.get("uvicorn", 0.0)))
    return float(per.get(worker, 0.0))


def _cores(run: dict[str, Any], worker: str) -> float:
    """A worker's CPU seconds a second of the load (cores)."""
    if "cpu_per_second" in run:
        return float(run["cpu_per_second"].get(worker, 0.0))
    spent = run["cpu_seconds"]
    seconds = spent.get("gunicorn", 0.0) + spent.get("uvicorn", 0.0)
    if worker != "workers":
        seconds = spent.get(worker, 0.0)
    return float(seconds) / max(run["duration"], 1)


def _p95(run: dict[str, Any], name: str) -> float | None:
    kind = next((kind for kind in run["kinds"] if kind["name"] == name), None)
    return float(kind.get("p95", 0)) / 1000 if kind else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default=OLD_MAIN, help=f"the older commit ({OLD_MAIN})")
    parser.add_argument("--runs", type=int, default=3, help="runs of each app (3)")
    parser.add_argument("--duration", type=int, default=30, help="seconds of load a run (30)")
    parser.add_argument("--json", dest="json_path", help="also write every run's figures here")
    parser.add_argument("loadtest", nargs="*", help="after --: more loadtest arguments")
    options = parser.parse_args(argv)
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        parser.error("set DATABASE_URL to a postgres:// database (the load test's sits next to it)")
    args = ["--duration", str(options.duration), *options.loadtest]
    if not any(arg.startswith("--scenario") for arg in args):
        args = ["--scenario", "night", *args]
    runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-compare-"))
    try:
        tree = export(options.old, folder)
        for number in range(options.runs):
            order = ("old", "new") if number % 2 == 0 else ("new", "old")
            for app in order:
                print(f"--- run {number + 1}, {app} ({options.old if app == 'old' else 'HEAD'})")
                sys.stdout.flush()
                try:
                    found = run_once(
                        tree if app == "old" else None,
                        args,
                        folder / f"{app}-{number}.json",
                        sys.executable,
                    )
                except subprocess.CalledProcessError:  # its reason is printed above
                    print(f"the {app} app's load test failed: stopped", file=sys.stderr)
                    return 1
                runs[app].append(found)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"\n{' '.join(args)}; old = {options.old}, new = this checkout")
    print("\n".join(summary(runs)))
    if options.json_path:
        Path(options.json_path).write_text(json.dumps(runs, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
