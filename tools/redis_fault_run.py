"""The fault run of issue 38: saves and reads through gunicorn on PostgreSQL while Redis is
stopped for a while, counting the answers and checking the deals.

Run from the tree under test (as root, PostgreSQL up, redis-server installed):

    .venv/bin/python tools/redis_fault_run.py \\
        --database-url postgres://USER:PW@127.0.0.1:5432/DB --redis-port 6401

A database ``<DB>_fault`` is made and dropped, a Redis started on ``--redis-port`` (stopped
after ``--before`` seconds for ``--down`` seconds, then started again for ``--after``),
gunicorn on a free port with it. Threads save deals (each with its one-time key, some sent
twice as a phone retrying does) and read the evening pages, live polls, standings, figures
pages and the tournament's ranking. Prints the answers per phase and kind, the 500s, and the
deals acknowledged against those stored: lost (acknowledged, not stored) and doubled.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
CSRF = "faultruncsrfsecret00000000000000"  # 32 characters: an unmasked CSRF secret


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--redis-port", type=int, required=True)
    parser.add_argument("--before", type=float, default=10)
    parser.add_argument("--down", type=float, default=15)
    parser.add_argument("--after", type=float, default=10)
    parser.add_argument("--threads", type=int, default=6)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--json", help="write the figures here too")
    options = parser.parse_args()

    from tools.bench import local_servers

    secret = "fault-run-" + "x" * 50
    with local_servers.postgres_database(options.database_url, "fault") as url:
        environ = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": secret}
        environ.pop("REDIS_URL", None)
        environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=environ,
            check=True,
        )
        os.environ.update({k: environ[k] for k in ("DATABASE_URL", "SECRET_KEY")})
        os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
        os.environ.pop("REDIS_URL", None)
        import django

        django.setup()
        pages, saves = _build(secret)
        redis_url = f"redis://127.0.0.1:{options.redis_port}/0"
        redis = [_redis(options.redis_port)]  # the one running: _load stops and starts it
        folder = tempfile.mkdtemp(prefix="fault-run-")
        server_env = local_servers.server_environment(
            database_url=url, redis_url=redis_url, secret_key=secret, static_root=folder
        )
        port = local_servers.free_port()
        gunicorn = local_servers.gunicorn(port, server_env, workers=options.workers)
        try:
            local_servers.wait_until_up(f"http://127.0.0.1:{port}/healthz", process=gunicorn)
            figures = _load(port, pages, saves, redis, options)
        finally:
            local_servers.stop(gunicorn)
            _stop_redis(redis[0])
            shutil.rmtree(folder, ignore_errors=True)
        acknowledged = figures.pop("acknowledged")
        stored = _stored(saves)
        figures["deals"] = {
            "acknowledged": len(acknowledged),
            "stored (fault-run keys)": sum(stored.values()),
            "lost (acknowledged, not stored)": sum(1 for key in acknowledged if key not in stored),
            "doubled (a key stored twice)": sum(1 for n in stored.values() if n > 1),
            "numbers stored twice in a game": _numbers_twice(saves),
        }
    print(json.dumps(figures, indent=2))
    if options.json:
        Path(options.json).write_text(json.dumps(figures, indent=2))


def _build(secret: str) -> tuple[list[tuple[str, str, str]], list[dict[str, Any]]]:
    """The pages read ((kind, path, cookie)) and the tables saved to."""
    from accounts.models import User
    from scorekeeper import services
    from scorekeeper.models import Player
    from tools.bench.load_club import build_tables

    built, seats = build_tables(1000, 4, secret)
    user = User.objects.get(pk=built.user_id)
    club = user.memberships.get().club
    players = list(Player.objects.filter(club=club).order_by("pk"))[:8]
    tournament = services.tournament_create(
        club=club, created_by=user, name="Fault run", rounds=2, deals_per_round=2
    )
    for player in players:
        services.tournament_register(tournament=tournament, player=player)
    services.round_start(tournament=tournament, created_by=user)
    cookie = seats[0].cookies[0]
    pages = [
        ("season", f"/clubs/{built.club_id}/seasons/{built.season_id}/", cookie),
        ("ranking", f"/ranking/{tournament.public_token}/", ""),
        ("tournament", f"/tournaments/{tournament.pk}/results/", cookie),
    ]
    for name in ("ratings", "head-to-head", "records", "contracts"):
        pages.append(
            ("figures", f"/clubs/{built.club_id}/{name}/?season={built.season_id}", cookie)
        )
    for table in seats:
        pages.append(("evening", f"/evenings/{table.evening_id}/", table.cookies[1]))
        pages.append(("poll", f"/evenings/{table.evening_id}/live/?version=0", table.cookies[2]))
    saves = [
        {"evening": t.evening_id, "game": t.game_id, "present": t.present, "cookie": t.cookies[0]}
        for t in seats
    ]
    return pages, saves


def _redis(port: int) -> subprocess.Popen[Any]:
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    import socket

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return process
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def _stop_redis(process: subprocess.Popen[Any]) -> None:
    if process.poll() is None:
        process.terminate()
        process.wait(10)


def _fetch(port: int, path: str, cookie: str, body: str | None = None) -> int:
    headers = {"Cookie": f"sessionid={cookie}; csrftoken={CSRF}"} if cookie else {}
    if body is not None:
        headers.update({"X-CSRFToken": CSRF, "Content-Type": "application/x-www-form-urlencoded"})
    if "/live/" in path:
        headers["HX-Request"] = "true"
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        link.request("POST" if body is not None else "GET", path, body=body, headers=headers)
        answer = link.getresponse()
        answer.read()
        return answer.status
    except (OSError, http.client.HTTPException):
        return 0
    finally:
        link.close()


def _load(
    port: int,
    pages: list[tuple[str, str, str]],
    saves: list[dict[str, Any]],
    redis: list[subprocess.Popen[Any]],
    options: argparse.Namespace,
) -> dict[str, Any]:
    """The clients' requests: ``options.before`` seconds, Redis stopped for ``options.down``,
    started again for ``options.after``. The answers counted by phase (when each was sent)."""
    phase = ["before"]
    counts: collections.Counter[tuple[str, str, int]] = collections.Counter()
    acknowledged: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()
    serial = iter(range(10**9))

    def worker(seed: int) -> None:
        chance = random.Random(seed)
        while not stop.is_set():
            if chance.random() < 0.35:
                table = chance.choice(saves)
                key = f"fault-{next(serial)}"
                present = table["present"]
                form = {
                    "deal-dealer": present[0],
                    "deal-taker": chance.choice(present),
                    "deal-contract": "garde",
                    "deal-bouts": 2,
                    "deal-points": "49",
                    "deal-points_for": "attack",
                    "deal-idempotency_key": key,
                }
                if len(present) == 5:
                    form["deal-partner"] = present[2]
                body = "&".join(f"{k}={v}" for k, v in form.items())
                path = f"/evenings/{table['evening']}/games/{table['game']}/deals/"
                now = phase[0]
                status = _fetch(port, path, table["cookie"], body)
                if chance.random() < 0.2:  # the phone did not see the answer: sent again
                    again = _fetch(port, path, table["cookie"], body)
                    with lock:
                        counts[(now, "save again", again)] += 1
                with lock:
                    counts[(now, "save", status)] += 1
                    if status == 302:
                        acknowledged.append(f"{table['game']}:{key}")
            else:
                kind, path, cookie = chance.choice(pages)
                now = phase[0]
                status = _fetch(port, path, cookie)
                with lock:
                    counts[(now, kind, status)] += 1

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(options.threads)]
    for thread in threads:
        thread.start()
    time.sleep(options.before)
    phase[0] = "down"
    _stop_redis(redis[0])
    time.sleep(options.down)
    phase[0] = "after"
    redis[0] = _redis(options.redis_port)
    time.sleep(options.after)
    stop.set()
    for thread in threads:
        thread.join()
    table: dict[str, dict[str, dict[str, int]]] = {}
    for (when, kind, status), n in sorted(counts.items()):
        table.setdefault(when, {}).setdefault(kind, {})[str(status)] = n
    failed = collections.Counter(
        w for (w, _k, s), n in counts.items() for _ in range(n) if s >= 500
    )
    unanswered = collections.Counter(
        w for (w, _k, s), n in counts.items() for _ in range(n) if not s
    )
    return {
        "answers": table,
        "5xx per phase": dict(failed),
        "no answer per phase": dict(unanswered),
        "requests": sum(counts.values()),
        "acknowledged": acknowledged,
    }


def _stored(saves: list[dict[str, Any]]) -> collections.Counter[str]:
    from scorekeeper.models import Deal

    rows = Deal.objects.filter(
        game_id__in=[table["game"] for table in saves], idempotency_key__startswith="fault-"
    ).values_list("game_id", "idempotency_key")
    return collections.Counter(f"{game}:{key}" for game, key in rows)


def _numbers_twice(saves: list[dict[str, Any]]) -> int:
    from django.db.models import Count

    from scorekeeper.models import Deal

    return (
        Deal.objects.filter(game_id__in=[table["game"] for table in saves])
        .values("game_id", "number")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .count()
    )


if __name__ == "__main__":
    main()
