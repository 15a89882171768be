"""The live polls' own process behind nginx, as the README deploys it: nginx sends the polls
to it, it answers "nothing changed", and nginx hands Django everything else (its 404), and
every poll when it is down. Runs in the PostgreSQL pass of .ci/run (which installs nginx);
elsewhere it is skipped like the other PostgreSQL tests.
"""

from __future__ import annotations

import http.client
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Evening
from scorekeeper.scoring.tarot import PassedDeal
from tests.factories import make_club, make_member, start_evening
from tools.bench import local_servers
from tools.bench.databases import database_url

REDIS_URL = os.environ.get("REDIS_URL", "")

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs PostgreSQL (the second pass of .ci/run)"
    ),
    pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL (the second pass of .ci/run)"),
]


def get(port: int, path: str, session: str) -> tuple[int, str]:
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        link.request("GET", path, headers={"Cookie": f"sessionid={session}", "HX-Request": "true"})
        answer = link.getresponse()
        return answer.status, answer.read().decode()
    finally:
        link.close()


@pytest.fixture
def site(transactional_db, tmp_path: Path) -> Iterator[tuple[int, object, object]]:
    """nginx in front of gunicorn and the poll process: nginx's port, gunicorn and the poll
    process (to stop one of them)."""
    environ = local_servers.server_environment(
        database_url=database_url(connection.settings_dict),
        redis_url=REDIS_URL,
        secret_key=settings.SECRET_KEY,
        static_root=str(tmp_path / "static"),
    )
    django_port, polls_port = local_servers.free_port(), local_servers.free_port()
    django = local_servers.gunicorn(django_port, environ, workers=1)
    polls = local_servers.poll_server(polls_port, environ)
    try:
        local_servers.wait_until_up(f"http://127.0.0.1:{django_port}/healthz", process=django)
        local_servers.wait_until_listening(polls_port, polls)
        with local_servers.nginx_proxy(django_port, tmp_path / "nginx", polls=polls_port) as port:
            yield port, django, polls
    finally:
        local_servers.stop(polls)
        local_servers.stop(django)


def following(port: int) -> tuple[str, Evening, list, object, str]:
    """An evening, a member's session that polled it once (the full way: 304 from Django,
    which lets the session in), and the poll's address at the evening's version."""
    club, players = make_club()
    member = make_member(club)
    evening, game = start_evening(club, players)
    client = Client()
    client.force_login(member)
    session = client.cookies["sessionid"].value
    evening.refresh_from_db()
    live = f"/evenings/{evening.pk}/live/?version={evening.version}"
    assert get(port, live, session)[0] == 304
    return session, evening, players, game, live


def test_the_poll_process_answers_unchanged_polls_and_django_the_rest(site) -> None:
    port, django, _polls = site
    session, evening, players, game, live = following(port)
    assert get(port, live, session)[0] == 304
    assert get(port, live, "no-such-session")[0] in (302, 404)  # Django's answer
    services.deal_record(game=game, inputs=PassedDeal(seated=tuple(p.pk for p in players)))
    status, body = get(port, live, session)  # the poll process: 404, so Django sends it
    assert status == 200 and f'data-version="{evening.version + 1}"' in body

    # Django down: an unchanged poll is still answered, by the poll process alone; the
    # rest gets nginx's 502.
    local_servers.stop(django)
    now = f"/evenings/{evening.pk}/live/?version={evening.version + 1}"
    assert get(port, now, session)[0] == 304
    assert get(port, live, session)[0] == 502
    assert get(port, f"/evenings/{evening.pk}/", session)[0] == 502


def test_with_the_poll_process_down_django_answers_every_poll(site) -> None:
    port, _django, polls = site
    session, evening, players, game, live = following(port)
    local_servers.stop(polls)
    assert get(port, live, session)[0] == 304
    services.deal_record(game=game, inputs=PassedDeal(seated=tuple(p.pk for p in players)))
    status, body = get(port, live, session)
    assert status == 200 and f'data-version="{evening.version + 1}"' in body
