"""``/healthz`` while the database is down: 503, and one short log line per call; while
Redis is down: 200, "degraded", and the cache's one line."""

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


@pytest.mark.django_db
def test_a_down_redis_is_reported_but_the_server_stays_in_the_load_balancer(
    client: Client, caplog
) -> None:
    from django.test import override_settings

    from tools.bench.local_servers import free_port

    refused = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    backend = "scorekeeper.server.redis_cache.RedisCache"
    caches = {alias: {"BACKEND": backend, "LOCATION": refused} for alias in ("default", "sessions")}
    with override_settings(CACHES=caches), caplog.at_level(logging.WARNING):
        answers = [client.get("/healthz") for _call in range(3)]
    for answer in answers:
        assert answer.status_code == 200  # every server shares the Redis: none is dropped
        assert answer.json() == {"status": "degraded", "database": "ok", "cache": "down"}
    assert [r.name for r in caplog.records] == ["scorekeeper.server.redis_cache"]  # once
