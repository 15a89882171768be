"""What a production box relies on: the environment file, commands without a secret, kept
connections, the shared cache, compression, /healthz and the logs."""

from __future__ import annotations

import gzip
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, RequestFactory, override_settings

from scorekeeper.server.env import env_database, load_env_file
from scorekeeper.server.request_log import JsonFormatter

ROOT = Path(__file__).resolve().parents[3]
SHEET = {
    "players": ["Ana", "Ben", "Chloé", "Dan"],
    "deals": [{"taker": "Ana", "contract": "garde", "bouts": 2, "points": 45}],
}


def manage(*args: str, **variables: str) -> subprocess.CompletedProcess[str]:
    """manage.py in a fresh interpreter, with the production settings and only these variables."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "ENV_FILE", "REDIS_URL"}
    }
    environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    environ.update(variables)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


# --- The environment file ----------------------------------------------------------------


def test_the_environment_file_fills_what_the_environment_lacks(tmp_path: Path) -> None:
    path = tmp_path / "scorekeeper.server.env"
    path.write_text(
        "# production\n\nexport DEBUG=0\nSECRET_KEY='from the file'\n"
        'ALLOWED_HOSTS="tarot.example"\nTIME_ZONE=Europe/Paris\n',
        encoding="utf-8",
    )
    environ = {"TIME_ZONE": "UTC"}
    load_env_file(str(path), environ)
    assert environ == {
        "DEBUG": "0",
        "SECRET_KEY": "from the file",
        "ALLOWED_HOSTS": "tarot.example",
        "TIME_ZONE": "UTC",  # the environment wins
    }


@pytest.mark.parametrize("content", ["NOT A LINE\n", "2FAST=1\n"])
def test_a_bad_environment_file_stops_start_up_naming_its_line(
    tmp_path: Path, content: str
) -> None:
    path = tmp_path / "bad.env"
    path.write_text("DEBUG=1\n" + content, encoding="utf-8")
    with pytest.raises(ImproperlyConfigured, match="line 2"):
        load_env_file(str(path), {})
    with pytest.raises(ImproperlyConfigured, match="ENV_FILE"):
        load_env_file(str(tmp_path / "missing.env"), {})


def test_score_deals_and_the_exports_need_no_secret_key(tmp_path: Path) -> None:
    database = tmp_path / "prod.sqlite3"
    env_file = tmp_path / "scorekeeper.server.env"
    env_file.write_text(f"DATABASE_URL=sqlite:///{database}\n", encoding="utf-8")
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(SHEET), encoding="utf-8")

    scored = manage("score_deals", str(sheet), ENV_FILE=str(env_file))
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["totals"]["Ana"] == 2 * 3 * (25 + 45 - 41)

    refused = manage("migrate", "--noinput", ENV_FILE=str(env_file))
    assert refused.returncode != 0 and "SECRET_KEY" in refused.stderr  # others still need it
    migrated = manage("migrate", "--noinput", ENV_FILE=str(env_file), SECRET_KEY="k" * 50)
    assert migrated.returncode == 0, migrated.stderr
    exported = manage("export_evening", "1", ENV_FILE=str(env_file))
    assert "SECRET_KEY" not in exported.stderr
    assert "1" in exported.stderr  # the database was read: no evening 1 in it


# --- Connections and the cache -------------------------------------------------------------


def test_database_connections_are_kept_and_checked_when_asked() -> None:
    url = "postgres://sk:pw@db.example:5432/scorekeeper"
    kept = env_database("DATABASE_URL", url, conn_max_age=600, conn_health_checks=True)
    assert kept["CONN_MAX_AGE"] == 600 and kept["CONN_HEALTH_CHECKS"] is True
    once = env_database("DATABASE_URL", url)
    assert once["CONN_MAX_AGE"] == 0 and once["CONN_HEALTH_CHECKS"] is False


def settings_line(expression: str, **variables: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CONN_MAX_AGE"}}
    environ.update({"DEBUG": "1", **variables})
    return subprocess.run(
        [sys.executable, "-c", f"import scorekeeper.settings as s; print({expression})"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_settings_keep_connections_and_share_the_cache_through_redis() -> None:
    default = settings_line(
        "s.DATABASES['default']['CONN_MAX_AGE'], s.CACHES['default']['BACKEND']"
    )
    assert default.stdout.split() == ["600", "django.core.cache.backends.locmem.LocMemCache"]
    redis = settings_line(
        "s.DATABASES['default']['CONN_MAX_AGE'], s.CACHES['default']['BACKEND']",
        REDIS_URL="redis://127.0.0.1:6379/0",
        CONN_MAX_AGE="0",
    )
    assert redis.stdout.split() == ["0", "scorekeeper.server.redis_cache.RedisCache"]
    bad = settings_line("1", REDIS_URL="localhost:6379")
    assert bad.returncode != 0 and "REDIS_URL" in bad.stderr.strip().splitlines()[-1]


# --- Compression --------------------------------------------------------------------------


@pytest.mark.django_db
def test_pages_are_gzipped_for_browsers_that_ask(client: Client) -> None:
    plain = client.get("/login/")
    zipped = client.get("/login/", HTTP_ACCEPT_ENCODING="gzip, br")
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert len(zipped.content) < len(plain.content) / 2
    assert gzip.decompress(zipped.content).decode().count("<form") == plain.content.decode().count(
        "<form"
    )
    # The same page twice: lengths differ (random bytes in the gzip header, against BREACH).
    lengths = {len(client.get("/login/", HTTP_ACCEPT_ENCODING="gzip").content) for _ in range(8)}
    assert len(lengths) > 1


# --- /healthz ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_healthz_answers_when_the_database_and_the_cache_do(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_answers_503_when_the_database_does_not(client: Client, monkeypatch) -> None:
    from django.db.backends.utils import CursorWrapper

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("database gone")

    monkeypatch.setattr(CursorWrapper, "execute", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "error"


# --- Logs ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_each_request_writes_one_line_with_its_timing(client: Client, caplog) -> None:
    logger = logging.getLogger("scorekeeper.requests")
    previous = logger.level
    logger.setLevel(logging.INFO)
    try:
        with caplog.at_level(logging.INFO, logger="scorekeeper.requests"):
            client.get("/login/")
            client.get("/evenings/999999/")
    finally:
        logger.setLevel(previous)
    lines = [record for record in caplog.records if record.name == "scorekeeper.requests"]
    assert [(line.method, line.path, line.status) for line in lines] == [
        ("GET", "/login/", 200),
        ("GET", "/evenings/999999/", 404),
    ]
    assert all(isinstance(line.ms, float) and line.ms >= 0 for line in lines)


def test_json_logs_carry_the_fields_and_the_error_with_its_request() -> None:
    formatter = JsonFormatter()
    record = logging.makeLogRecord(
        {"name": "scorekeeper.requests", "levelname": "INFO", "msg": "GET /", "ms": 1.5}
    )
    line = json.loads(formatter.format(record))
    assert line["message"] == "GET /" and line["ms"] == 1.5 and line["level"] == "INFO"
    request = RequestFactory().get("/evenings/3/?x=1")
    try:
        raise ValueError("boom")
    except ValueError:
        error = logging.makeLogRecord(
            {
                "name": "django.request",
                "levelname": "ERROR",
                "msg": "Internal Server Error: %s",
                "args": ("/evenings/3/",),
                "exc_info": sys.exc_info(),
                "request": request,
                "status_code": 500,
            }
        )
    line = json.loads(formatter.format(error))
    assert line["path"] == "/evenings/3/?x=1" and line["method"] == "GET"
    assert line["status_code"] == 500
    assert "ValueError: boom" in line["error"]
    assert "\n" not in formatter.format(error)  # one line


@override_settings(DEBUG=False)
def test_json_logs_are_chosen_by_the_environment() -> None:
    result = settings_line("s.LOGGING['handlers']['console']['formatter']", LOG_FORMAT="json")
    assert result.stdout.strip() == "json"
    assert settings_line("1", LOG_FORMAT="xml").returncode != 0
