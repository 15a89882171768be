"""A real Redis stopped in the middle of an evening, then started again: every page and
every save is served all along (from the database while Redis is away), each deal stored
once, the log says "down" once and "back" once, and the cache is used again.

The test runs its own redis-server on a free port (it stops it: never the one of .ci/run).
Without redis-server it is skipped on the SQLite pass, and fails on the PostgreSQL pass,
where .ci/run installs Redis and sets REDIS_URL.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.test import Client, override_settings
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Deal, Season
from scorekeeper.server import redis_cache
from tests.factories import deal_post, make_club, start_evening
from tests.scorekeeper.tournament_factories import make_tournament
from tools.bench.local_servers import free_port, stop

pytestmark = pytest.mark.django_db

BINARY = shutil.which("redis-server") or "/usr/bin/redis-server"
LOGGER = "scorekeeper.server.redis_cache"
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
NO_DISK = ("--save", "", "--appendonly", "no")


class RedisServer:
    """A redis-server of this test's own on a free loopback port, no disk."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[Any] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [BINARY, "--port", str(self.port), "--bind", "127.0.0.1", *NO_DISK],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), 1).close()
                return
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None

    def keys(self) -> int:
        return int(redis.Redis.from_url(self.url).dbsize())


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    if not os.path.exists(BINARY):
        if os.environ.get("REDIS_URL"):
            pytest.fail("REDIS_URL is set but redis-server is missing")
        pytest.skip("needs redis-server (the PostgreSQL pass of .ci/run installs it)")
    server = RedisServer()
    server.start()
    caches = {
        alias: {
            "BACKEND": f"scorekeeper.server.redis_cache.{backend}",
            "LOCATION": server.url,
            "KEY_PREFIX": "redis-stopped",
            "TIMEOUT": 86400,
        }
        for alias, backend in (
            ("default", "RedisCache"),
            ("sessions", "SessionCache"),  # the signed-in phones' sessions: read from Redis
        )
    }
    try:
        with override_settings(CACHES=caches):
            yield server
    finally:
        server.stop()


def test_with_redis_stopped_every_page_and_save_is_served_and_each_deal_stored_once(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    season = Season.objects.get(club=club)
    _club, _entrants, tournament = make_tournament(8, email="tom@example.com")
    organiser = tournament.club.memberships.get(role="owner").user
    services.round_start(tournament=tournament, created_by=organiser)
    scorer, organiser_phone, anyone = (Client(raise_request_exception=False) for _n in range(3))
    scorer.force_login(club.memberships.get(role="owner").user)
    organiser_phone.force_login(organiser)
    pages: list[tuple[Client, str, dict[str, str]]] = [
        (scorer, reverse("evening", args=[evening.pk]), {}),
        (
            scorer,
            reverse("evening_live", args=[evening.pk]) + "?version=0",
            {"HTTP_HX_REQUEST": "true"},
        ),
        (scorer, reverse("season", args=[club.pk, season.pk]), {}),
        *(
            (scorer, reverse(name, args=[club.pk]) + f"?season={season.pk}", {})
            for name in ("figures_ratings", "figures_head_to_head", "figures_records")
        ),
        (scorer, reverse("figures_contracts", args=[club.pk]) + f"?season={season.pk}", {}),
        (organiser_phone, reverse("tournament_results", args=[tournament.pk]), {}),
        (anyone, reverse("tournament_public", args=[tournament.public_token]), {}),
    ]
    seated = [p.pk for p in players]
    forms: dict[str, dict[str, object]] = {}

    def save(key: str) -> int:
        """The scorer's deal under ``key`` (the same form again when sent again)."""
        number = len(forms)
        form = forms.setdefault(
            key,
            deal_post(
                dealer=seated[number % 4],
                taker=seated[(number + 1) % 4],
                contract="garde",
                bouts=2,
                points="49",
                idempotency_key=key,
            ),
        )
        url = reverse("deal_create", args=[evening.pk, game.pk])
        return scorer.post(url, form, **EN).status_code

    def read_all() -> list[int]:
        return [client.get(path, **extra, **EN).status_code for client, path, extra in pages]

    # Redis up: the pages fill it.
    assert [save("up-1"), save("up-2")] == [302, 302]
    assert set(read_all()) == {200}
    assert redis_server.keys() > 0

    # Redis stopped in the middle of the evening: saves (one sent twice) and reads go on.
    redis_server.stop()
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        answers = [save("down-1"), *read_all(), save("down-2"), save("down-2"), *read_all()]
        answers += [save("down-3"), *read_all()]
    assert 500 not in answers
    assert answers.count(302) == 4 and set(answers) == {200, 302}
    down = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    assert len(down) == 1 and f"Redis at 127.0.0.1:{redis_server.port} is down" in down[0]
    stored = list(Deal.objects.filter(game=game).values_list("idempotency_key", flat=True))
    assert sorted(stored) == sorted(forms)  # each stored once: the retry did not double
    assert sorted(Deal.objects.filter(game=game).values_list("number", flat=True)) == [
        1,
        2,
        3,
        4,
        5,
    ]
    page = scorer.get(reverse("evening", args=[evening.pk]), **EN)
    assert all(f'id="deal-{deal.pk}"' in page.text for deal in Deal.objects.filter(game=game))

    # Redis started again (empty): the next try finds it, and the cache is used again.
    caplog.clear()
    redis_server.start()
    assert redis_server.keys() == 0
    time.sleep(redis_cache.RETRY_SECONDS)  # from the last failed try: the next one is due
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert save("back-1") == 302
        assert set(read_all()) == {200}
    assert [r.getMessage() for r in caplog.records if r.name == LOGGER] == [
        f"Redis at 127.0.0.1:{redis_server.port} is back: the cache is on again"
    ]
    assert redis_server.keys() > 0
