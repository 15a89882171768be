"""Two app servers (two gunicorn processes) sharing one PostgreSQL and one Redis: what one
saves or computes, the other serves at once. Runs in the PostgreSQL pass of .ci/run, which
starts Redis and sets REDIS_URL; elsewhere it is skipped like the other PostgreSQL tests.
"""

from __future__ import annotations

import http.client
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Deal, Evening, Season
from scorekeeper.models.figures import TAROT
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import make_club, start_evening
from tests.scorekeeper.season_factories import for_season_by_kind
from tools.bench import local_servers
from tools.bench.databases import database_url

REDIS_URL = os.environ.get("REDIS_URL", "")
CSRF = "twoserverscsrfsecret000000000000"  # an unmasked CSRF secret: 32 characters

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (the second pass of .ci/run)"
    ),
    pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL (the second pass of .ci/run)"),
]


def fetch(
    port: int, path: str, cookie: str, *, body: str | None = None, htmx: bool = False
) -> tuple[int, str]:
    """One request, redirects not followed."""
    headers = {"Cookie": f"sessionid={cookie}; csrftoken={CSRF}"}
    if htmx:
        headers["HX-Request"] = "true"
    if body is not None:
        headers["X-CSRFToken"] = CSRF
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        link.request("POST" if body is not None else "GET", path, body=body, headers=headers)
        answer = link.getresponse()
        return answer.status, answer.read().decode()
    finally:
        link.close()


@pytest.fixture
def servers(transactional_db, tmp_path: Path) -> Iterator[tuple[int, int]]:
    environ = local_servers.server_environment(
        database_url=database_url(connection.settings_dict),
        redis_url=REDIS_URL,
        secret_key=settings.SECRET_KEY,
        static_root=str(tmp_path / "static"),
    )
    ports = local_servers.free_port(), local_servers.free_port()
    processes = [local_servers.gunicorn(port, environ, workers=1) for port in ports]
    try:
        for port, process in zip(ports, processes, strict=True):
            local_servers.wait_until_up(f"http://127.0.0.1:{port}/healthz", process=process)
        yield ports
    finally:
        for process in processes:
            local_servers.stop(process)


def test_what_one_server_saves_or_computes_the_other_serves_at_once(servers) -> None:
    one, other = servers
    club, players = make_club()
    evening, game = start_evening(club, players)
    seated = tuple(p.pk for p in players)
    for number in range(6):
        services.deal_record(
            game=game,
            inputs=TarotDeal(
                seated=seated, taker=seated[number % 4], contract="garde", bouts=2, points=50
            ),
            dealer=players[number % 4],
        )
    owner = club.memberships.get(role="owner").user
    client = Client()
    client.force_login(owner)
    session = client.cookies["sessionid"].value
    version = Evening.objects.get(pk=evening.pk).version
    live = f"/evenings/{evening.pk}/live/?version={version}"

    # Both follow the evening: nothing changed.
    for port in (one, other):
        assert fetch(port, f"/evenings/{evening.pk}/", session)[0] == 200
        assert fetch(port, live, session, htmx=True)[0] == 304

    # A deal saved through one: the other's live poll and evening page show it at once.
    form = (
        f"deal-dealer={seated[2]}&deal-taker={seated[3]}&deal-contract=garde&deal-bouts=2"
        "&deal-points=49&deal-points_for=attack&deal-petit_au_bout=&deal-chelem="
        "&deal-idempotency_key=two-servers-1"
    )
    status, _body = fetch(one, f"/evenings/{evening.pk}/games/{game.pk}/deals/", session, body=form)
    assert status == 302
    deal = Deal.objects.get(game=game, number=7)
    status, body = fetch(other, live, session, htmx=True)
    assert status == 200
    assert f'data-version="{version + 1}"' in body and f'id="deal-{deal.pk}"' in body
    status, body = fetch(other, f"/evenings/{evening.pk}/", session)
    assert status == 200 and f'id="deal-{deal.pk}"' in body

    # The season reads the same on both: the figures the save wrote, in the database.
    season = Season.objects.get(club=club)
    url = f"/clubs/{club.pk}/seasons/{season.pk}/"
    status, first = fetch(one, url, session)
    assert status == 200
    standings = re.search(r"<table class=\"scores standings.*?</table>", first, re.S)
    assert standings is not None and players[0].name in standings.group(0)
    status, same = fetch(other, url, session)
    assert status == 200 and standings.group(0) in same
    assert for_season_by_kind(season)[TAROT].rows
