"""Tiny helpers that read settings from environment variables; a bad value stops start-up
with an ``ImproperlyConfigured`` naming the variable."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}
_DATABASE_SCHEMES = {"sqlite", "postgres", "postgresql", "pgsql"}


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    return (os.environ if environ is None else environ).get(name)


def env_str(name: str, default: str, environ: Mapping[str, str] | None = None) -> str:
    value = _raw(name, environ)
    return default if value is None else value.strip()


def env_bool(name: str, default: bool, environ: Mapping[str, str] | None = None) -> bool:
    value = _raw(name, environ)
    if value is None:
        return default
    folded = value.strip().lower()
    if folded in _TRUE:
        return True
    if folded in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}: {value!r} is not a boolean (use 1/0, true/false, yes/no)")


def env_int(
    name: str, default: int, environ: Mapping[str, str] | None = None, *, minimum: int = 0
) -> int:
    value = _raw(name, environ)
    if value is None or not value.strip():
        return default
    try:
        number = int(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}: {value!r} is not a whole number") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name}: {number} is less than {minimum}")
    return number


def env_list(name: str, default: list[str], environ: Mapping[str, str] | None = None) -> list[str]:
    value = _raw(name, environ)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_networks(
    name: str, default: list[str], environ: Mapping[str, str] | None = None
) -> list[str]:
    """A comma-separated list of IP addresses or networks (``10.0.0.1``, ``10.0.0.0/8``)."""
    values = env_list(name, default, environ)
    for value in values:
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {value!r} is not an IP address or network"
            ) from None
    return values


def env_choice(
    name: str, default: str, choices: set[str], environ: Mapping[str, str] | None = None
) -> str:
    value = env_str(name, default, environ)
    if value not in choices:
        raise ImproperlyConfigured(f"{name}: {value!r} is not one of {', '.join(sorted(choices))}")
    return value


def env_database(
    name: str,
    default: str,
    environ: Mapping[str, str] | None = None,
    *,
    conn_max_age: int | None = 0,
    conn_health_checks: bool = False,
) -> dict[str, Any]:
    """Parse a database URL (``sqlite:///path`` or ``postgres://user:pw@host:port/name``).

    ``conn_max_age``: seconds a connection is kept for the next request (0: one per request,
    None: for ever); ``conn_health_checks``: a kept connection is tested before it is reused.
    """
    url = env_str(name, default, environ)
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme not in _DATABASE_SCHEMES:
        raise ImproperlyConfigured(
            f"{name}: {url!r} is not a sqlite:// or postgres:// database URL"
        )
    try:
        config = dict(
            dj_database_url.parse(
                url, conn_max_age=conn_max_age, conn_health_checks=conn_health_checks
            )
        )
    except Exception as error:  # the library raises several types for malformed URLs
        raise ImproperlyConfigured(f"{name}: {url!r} cannot be read ({error})") from None
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name}: {url!r} names no database")
    return config


def load_env_file(path: str, environ: dict[str, str] | None = None) -> None:
    """Read ``KEY=value`` lines into the environment, as systemd's EnvironmentFile does.

    Blank lines and ``#`` comments are skipped, an ``export`` before the name and quotes
    around the value are allowed. A variable already set keeps its value. No path, nothing.
    """
    if not path:
        return
    target = os.environ if environ is None else environ
    try:
        lines = open(path, encoding="utf-8").read().splitlines()  # noqa: SIM115
    except OSError as error:
        raise ImproperlyConfigured(f"ENV_FILE: {path!r} cannot be read ({error})") from None
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        text = text.removeprefix("export ").strip()
        name, equals, value = text.partition("=")
        name, value = name.strip(), value.strip()
        if not equals or not name.isidentifier():
            raise ImproperlyConfigured(f"ENV_FILE: {path}, line {number}: not NAME=value")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        target.setdefault(name, value)
