"""gunicorn's master builds what every worker needs, then freezes it before each fork."""

from __future__ import annotations

import gc
import runpy
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.test import override_settings

from scorekeeper.server import preload

CONF = Path(settings.BASE_DIR) / "gunicorn.conf.py"
CACHED = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [Path(settings.BASE_DIR) / "templates"],
        "APP_DIRS": False,
        "OPTIONS": {
            **settings.TEMPLATES[0]["OPTIONS"],
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    ["django.template.loaders.filesystem.Loader"],
                )
            ],
        },
    }
]


@pytest.fixture
def unfrozen() -> Iterator[None]:
    yield
    gc.unfreeze()


def test_the_warm_up_compiles_every_template_of_the_project_once() -> None:
    names = list((Path(settings.BASE_DIR) / "templates").rglob("*.html"))
    with override_settings(TEMPLATES=CACHED):
        engine = engines["django"]
        assert preload.warm_up() == len(names) > 50
        loader = engine.engine.template_loaders[0]
        assert len(loader.get_template_cache) == len(names)  # kept: no worker compiles them


def test_freezing_takes_what_is_alive_out_of_the_collector_s_sight(unfrozen: None) -> None:
    kept = [{"alive": number} for number in range(1000)]
    preload.freeze()
    assert gc.get_freeze_count() >= len(kept)
    assert not any(gc.is_tracked(item) and item in gc.get_objects(2) for item in kept[:3])


class _Server:
    """What gunicorn's hooks see of the master: its log."""

    def __init__(self) -> None:
        self.log = self
        self.lines: list[str] = []

    def info(self, message: str, *args: object) -> None:
        self.lines.append(message % args)

    warning = info


def test_gunicorn_warms_up_once_ready_and_freezes_before_each_fork(
    unfrozen: None, monkeypatch
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(preload, "warm_up", lambda: calls.append("warm up") or 79)
    monkeypatch.setattr(preload, "freeze", lambda: calls.append("freeze"))
    conf = runpy.run_path(str(CONF))
    server = _Server()
    conf["when_ready"](server)
    conf["pre_fork"](server, object())
    conf["pre_fork"](server, object())
    assert calls == ["warm up", "freeze", "freeze"]
    assert server.lines == ["warm-up: 79 templates compiled"]
    assert conf["preload_app"] is True  # the hooks run in the master, before the fork


def test_a_failed_warm_up_is_logged_and_the_server_starts(monkeypatch) -> None:
    def broken() -> int:
        raise ValueError("a template that does not compile")

    monkeypatch.setattr(preload, "warm_up", broken)
    server = _Server()
    runpy.run_path(str(CONF))["when_ready"](server)  # no exception: the master goes on
    assert server.lines == ["warm-up skipped: ValueError('a template that does not compile')"]
