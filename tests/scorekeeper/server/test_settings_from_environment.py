from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from scorekeeper.server.env import env_bool, env_database, env_int, env_list

ROOT = Path(__file__).resolve().parents[3]


def start_django(
    show: str = "s.DEBUG, s.LANGUAGE_CODE", **variables: str
) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter with the given environment; print ``show``."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "LANGUAGE_CODE", "TIME_ZONE", "DEV_TOOLS"}
    }
    environ.update(variables)
    return subprocess.run(
        [sys.executable, "-c", f"import scorekeeper.settings as s; print({show})"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_debug_is_off_unless_set_and_then_a_secret_key_is_required() -> None:
    result = start_django()
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_development_starts_with_debug_and_french_by_default() -> None:
    result = start_django(DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "fr"]


def test_production_starts_with_a_secret_key_and_debug_off() -> None:
    result = start_django(SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "fr"]


@pytest.mark.parametrize(
    ("variables", "installed"),
    [
        ({"SECRET_KEY": "x" * 50}, False),
        ({"SECRET_KEY": "x" * 50, "DEV_TOOLS": "1"}, True),
        ({"DEBUG": "1"}, True),
        ({"DEBUG": "1", "DEV_TOOLS": "0"}, False),
    ],
)
def test_the_benchmark_app_is_installed_in_development_only(
    variables: dict[str, str], installed: bool
) -> None:
    result = start_django("'tools.bench' in s.INSTALLED_APPS", **variables)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(installed)]


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DEBUG", "maybe"),
        ("DATABASE_URL", "mysql://db/name"),
        ("DATABASE_URL", "not a url"),
        ("LANGUAGE_CODE", "de"),
        ("TIME_ZONE", "Mars/Olympus"),
        ("EMAIL_PORT", "twenty-five"),
        ("EMAIL_USE_TLS", "perhaps"),
        ("LOG_LEVEL", "LOUD"),
        ("CACHE_MAX_ENTRIES", "many"),
    ],
)
def test_a_bad_value_stops_start_up_naming_the_variable(variable: str, value: str) -> None:
    result = start_django(**{"DEBUG": "1", variable: value})
    assert result.returncode != 0
    assert variable in result.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(("text", "expected"), [("1", True), ("yes", True), ("off", False)])
def test_booleans_read_the_usual_spellings(text: str, expected: bool) -> None:
    assert env_bool("FLAG", not expected, {"FLAG": text}) is expected


def test_a_missing_boolean_takes_its_default() -> None:
    assert env_bool("FLAG", True, {}) is True


def test_lists_are_comma_separated_and_trimmed() -> None:
    assert env_list("HOSTS", [], {"HOSTS": " a.example, b.example ,"}) == ["a.example", "b.example"]


def test_a_negative_port_is_refused() -> None:
    with pytest.raises(ImproperlyConfigured, match="EMAIL_PORT"):
        env_int("EMAIL_PORT", 25, {"EMAIL_PORT": "-1"}, minimum=1)


def test_sqlite_and_postgres_urls_are_understood() -> None:
    sqlite = env_database("DATABASE_URL", "", {"DATABASE_URL": "sqlite:////tmp/score.sqlite3"})
    postgres = env_database(
        "DATABASE_URL", "", {"DATABASE_URL": "postgres://u:p@db.internal:5433/scores"}
    )
    assert sqlite["ENGINE"] == "django.db.backends.sqlite3"
    assert sqlite["NAME"] == "/tmp/score.sqlite3"
    assert postgres["ENGINE"] == "django.db.backends.postgresql"
    assert (postgres["HOST"], postgres["PORT"], postgres["NAME"]) == ("db.internal", 5433, "scores")
