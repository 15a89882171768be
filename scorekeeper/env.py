"""Tiny helpers that read settings from environment variables and fail loudly.

A bad value stops start-up with an ``ImproperlyConfigured`` error that names the variable.
"""

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
    name: str, default: str, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Parse a database URL (``sqlite:///path`` or ``postgres://user:pw@host:port/name``)."""
    url = env_str(name, default, environ)
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme not in _DATABASE_SCHEMES:
        raise ImproperlyConfigured(
            f"{name}: {url!r} is not a sqlite:// or postgres:// database URL"
        )
    try:
        config = dict(dj_database_url.parse(url, conn_max_age=0))
    except Exception as error:  # the library raises several types for malformed URLs
        raise ImproperlyConfigured(f"{name}: {url!r} cannot be read ({error})") from None
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name}: {url!r} names no database")
    return config
