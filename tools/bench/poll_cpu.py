"""The CPU of one unchanged live poll through the WSGI handler, in process.

    DATABASE_URL=postgres://… REDIS_URL=redis://… SECRET_KEY=… ALLOWED_HOSTS=127.0.0.1 \
        .venv/bin/python tools/bench/poll_cpu.py [--repeat 2000] [--profile 30]

Production settings (DEBUG off) on the database and Redis named: a member's phone asks
``/evenings/<id>/live/`` with ``If-None-Match`` naming the evening's version, as nginx hands
it to gunicorn; the median CPU (``time.process_time``) and wall time of ``--repeat`` polls,
then the functions that took most with ``--profile N``. It adds a club, its member and an
evening to that database: point it at a throw-away one.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
os.environ.pop("DEBUG", None)


def _environ(path: str, cookie: str, etag: str) -> dict[str, Any]:
    """What gunicorn hands Django for a poll that nginx passed on (the headers wrk sends)."""
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SCRIPT_NAME": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.0",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_X_FORWARDED_FOR": "127.0.0.1",
        "HTTP_X_FORWARDED_PROTO": "http",
        "HTTP_CONNECTION": "close",
        "HTTP_COOKIE": cookie,
        "HTTP_HX_REQUEST": "true",
        "HTTP_IF_NONE_MATCH": etag,
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.url_scheme": "http",
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions")
    options = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.core.wsgi import get_wsgi_application
    from django.utils.module_loading import import_string

    from accounts.models import User
    from scorekeeper import services
    from scorekeeper.models import Evening

    owner = User.objects.create_user(f"owner-{time.time_ns()}@example.com", display_name="O")
    member = User.objects.create_user(f"member-{time.time_ns()}@example.com", password="pw")
    club = services.club_create(name="Poll CPU", owner=owner)
    players = [services.player_add(club=club, name=n) for n in ("Ana", "Ben", "Chloé", "Dan")]
    club.memberships.create(user=member, role="member")
    evening = services.evening_start(
        club=club, players=players, first_dealer=players[0], created_by=owner
    )
    version = Evening.objects.get(pk=evening.pk).version
    session = import_string(f"{settings.SESSION_ENGINE}.SessionStore")()
    session[SESSION_KEY] = str(member.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = member.get_session_auth_hash()
    session.save()
    cookie = f"{settings.SESSION_COOKIE_NAME}={session.session_key}"

    application = get_wsgi_application()
    statuses: list[str] = []

    def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> None:
        statuses.append(status)

    def poll() -> None:
        body = application(
            _environ(f"/evenings/{evening.pk}/live/", cookie, f'"{version}"'), start_response
        )
        for _chunk in body:
            pass
        body.close()

    for _ in range(50):
        poll()
    if statuses[-1] != "304 Not Modified":
        raise SystemExit(f"the poll answered {statuses[-1]}, not 304")
    cpu, wall = [], []
    for _ in range(options.repeat):
        c, w = time.process_time(), time.perf_counter()
        poll()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    # process_time ticks coarsely on some kernels: the mean is the honest figure, the
    # median only says how lumpy it is.
    print(
        f"unchanged poll, {options.repeat} times: CPU mean {statistics.fmean(cpu) * 1e6:.0f} µs"
        f" (median {statistics.median(cpu) * 1e6:.0f}), wall median"
        f" {statistics.median(wall) * 1e6:.0f} µs"
    )
    if options.profile:
        profile = cProfile.Profile(time.process_time)  # CPU, not wall: the machine is shared
        profile.enable()
        for _ in range(options.repeat):
            poll()
        profile.disable()
        stats = pstats.Stats(profile).sort_stats("tottime")
        stats.print_stats(options.profile)
        stats.sort_stats("cumulative").print_stats(options.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
