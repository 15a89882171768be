"""``tools/bench/compare_main.py``: an older commit's app and this one under the same load."""

from __future__ import annotations

from typing import Any

import scorekeeper.settings as app_settings
from tools.bench import compare_main, driving_settings


def test_the_older_app_is_driven_by_this_load_test_installed_ahead_of_its_apps() -> None:
    """An older app has a ``loadtest`` of its own (scorekeeper/management): the first app
    installed wins the command's name."""
    assert driving_settings.INSTALLED_APPS[0] == "tools.bench"
    rest = [app for app in app_settings.INSTALLED_APPS if app != "tools.bench"]
    assert driving_settings.INSTALLED_APPS[1:] == rest
    assert driving_settings.ROOT_URLCONF == app_settings.ROOT_URLCONF  # its own settings


def run(gunicorn_ms: float, poll_p95_ms: float) -> dict[str, Any]:
    return {
        "duration": 30,
        "requests": 1000,
        "worst_p95_ms": poll_p95_ms,
        "cpu_ms_per_request": {"gunicorn": gunicorn_ms, "postgresql": 1.0},
        "cpu_seconds": {"machine busy": 30.0},
        "load_average": {"before": 1.0, "after": 1.5},
        "kinds": [{"name": "live poll", "p95": poll_p95_ms * 1000}],
    }


def test_the_summary_gives_each_app_s_median_and_spread_per_figure() -> None:
    lines = compare_main.summary(
        {"old": [run(2.0, 10), run(3.0, 30), run(2.5, 20)], "new": [run(4.0, 5)]}
    )
    assert len([line for line in lines if line.startswith(("1 ", "2 ", "3 "))]) == 4
    (cpu,) = [line for line in lines if line.startswith("gunicorn CPU ms/request")]
    assert cpu.split()[3:] == ["2.50", "(2.00–3.00)", "4.00"]
    (poll,) = [line for line in lines if line.startswith("p95 ms live poll")]
    assert poll.split()[4:] == ["20.00", "(10.00–30.00)", "5.00"]


def test_the_older_app_polls_and_this_checkout_holds_event_streams(tmp_path, monkeypatch) -> None:
    sent: list[list[str]] = []

    def run_command(command: list[str], **_: Any) -> None:
        sent.append(command)
        (tmp_path / "out.json").write_text("{}")

    monkeypatch.setattr(compare_main.subprocess, "run", run_command)
    compare_main.run_once(tmp_path, ["--duration", "30"], tmp_path / "out.json", "python")
    compare_main.run_once(None, ["--duration", "30"], tmp_path / "out.json", "python")
    old, new = sent
    assert old[old.index("--live") + 1] == "poll" and "--version-in-address" in old
    assert new[new.index("--live") + 1] == "events" and "--version-in-address" not in new


def test_the_summary_gives_the_workers_cpu_a_second_and_uvicorn_s_apart() -> None:
    new = run(4.0, 5)
    new.update(
        live="events",
        cpu_ms_per_request={"gunicorn": 1.5, "uvicorn": 0.5, "workers": 2.0, "postgresql": 1.0},
        cpu_per_second={"gunicorn": 0.3, "uvicorn": 0.1, "workers": 0.4, "postgresql": 0.1},
        kinds=[{"name": "live update (200)", "p95": 7000}],
    )
    old = run(2.0, 10)
    old["cpu_seconds"].update(gunicorn=15.0)
    lines = compare_main.summary({"old": [old], "new": [new]})
    by_name = {line[:28].strip(): line[28:].split() for line in lines if len(line) > 28}
    assert by_name["workers CPU ms/request"] == ["2.00", "2.00"]
    assert by_name["uvicorn CPU ms/request"] == ["0.00", "0.50"]
    assert by_name["workers CPU s a second"] == ["0.50", "0.40"]
    assert by_name["p95 ms live poll"] == ["10.00", "-"]
    assert by_name["p95 ms live update (200)"] == ["-", "7.00"]
