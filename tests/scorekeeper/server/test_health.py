"""``/healthz`` while the database is down: 503, and one short log line per call."""

from __future__ import annotations

import logging

import pytest
from django.test import Client


@pytest.mark.django_db
def test_a_down_database_is_one_log_line_without_a_traceback(
    client: Client, monkeypatch, caplog
) -> None:
    from django.db.backends.utils import CursorWrapper

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("connection refused\n\tIs the server running on host localhost?")

    monkeypatch.setattr(CursorWrapper, "execute", broken)
    with caplog.at_level(logging.ERROR, logger="scorekeeper.server.health"):
        for _call in range(3):
            assert client.get("/healthz").status_code == 503
    records = [r for r in caplog.records if r.name == "scorekeeper.server.health"]
    assert len(records) == 3
    for record in records:
        assert record.exc_info is None
        assert "\n" not in record.getMessage()
        assert "RuntimeError: connection refused Is the server running" in record.getMessage()
