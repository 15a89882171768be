"""The databases the bench points Django's "default" connection at, and back.

The benchmark's is a throw-away SQLite file; the load test's is a PostgreSQL database of its
own (made by ``local_servers.postgres_database``). Either is migrated on entry; on exit the
project's own connection is put back, as it was (it may be in a transaction).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connections
from django.db.utils import ConnectionHandler


class _pointed_at:
    """Point the "default" connection at another database, migrated; put it back after."""

    def __init__(self) -> None:
        self.original: Any = None

    def connection_settings(self) -> dict[str, Any]:
        raise NotImplementedError

    def check(self, wrapper: Any) -> None:
        """Refuse a connection that is not the one meant (nothing to check by default)."""

    def __enter__(self) -> None:
        self.original = connections["default"]  # left as it is: it may be in a transaction
        wrapper = ConnectionHandler({"default": self.connection_settings()})["default"]
        self.check(wrapper)
        connections["default"] = wrapper
        call_command("migrate", database="default", verbosity=0, interactive=False)

    def __exit__(self, *exc: object) -> None:
        connections["default"].close()
        connections["default"] = self.original


class throwaway_database(_pointed_at):
    """Point the "default" connection at a new SQLite file, migrated; put it back after."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def connection_settings(self) -> dict[str, Any]:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(self.path),
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        }

    def check(self, wrapper: Any) -> None:
        if wrapper.settings_dict["NAME"] != str(self.path):  # pragma: no cover
            raise CommandError("the benchmark database is not the temporary file")


class connected_to(_pointed_at):
    """Point the "default" connection at the load test's database, migrated; put it back."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def connection_settings(self) -> dict[str, Any]:
        from scorekeeper.server.env import env_database

        return env_database("URL", self.url, {"URL": self.url})


def database_url(config: dict[str, Any]) -> str:
    """A ``postgres://`` URL for Django's settings of a PostgreSQL database."""
    user = config.get("USER") or ""
    password = f":{config['PASSWORD']}" if config.get("PASSWORD") else ""
    at = f"{user}{password}@" if user else ""
    port = f":{config['PORT']}" if config.get("PORT") else ""
    return f"postgres://{at}{config.get('HOST') or '127.0.0.1'}{port}/{config['NAME']}"
