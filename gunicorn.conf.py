"""gunicorn settings for Scorekeeper: ``gunicorn -c gunicorn.conf.py scorekeeper.wsgi``.

Each value can be changed from the environment (the same file systemd reads, see
docs/operations.md, "Deployment"); the defaults fit a small machine behind a reverse proxy on
the same host.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Any


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise SystemExit(f"{name}: {value!r} is not a whole number") from None


# Where the reverse proxy (Caddy, nginx) sends requests.
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")

# Requests are CPU-bound Python (threads gave nothing in the measurements and cost
# memory and connections): sync workers, two per core so one waits on the database while the
# other computes. Each worker keeps one database connection (CONN_MAX_AGE).
workers = _int("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count())
# gunicorn's sync worker, which reads what is left of a request before closing: a request it
# refuses, or that Django answers without reading its 3 MB body, gets its 4xx at the proxy,
# not a reset that the proxy counts as this server's failure (server/gunicorn_worker.py).
worker_class = "scorekeeper.server.gunicorn_worker.DrainingSyncWorker"
threads = 1

# Above nginx's own limits (docs/operations.md, "nginx in front of several app servers":
# `large_client_header_buffers 4 4k`): nginx answers a request line or a header too long
# itself (414, 400), and what it lets through, with the X-Forwarded-For it appends, always
# fits here. The number of headers is bounded by nginx's buffers (4 x 4 KB, 4 bytes at least
# a header): gunicorn never refuses a request that nginx took.
limit_request_line = 8190  # gunicorn's maximum
limit_request_field_size = 8190
limit_request_fields = 8192

# Import Django once in the master, then fork: workers start fast and share memory pages.
# No connection is opened at import time, so none is shared between workers.
preload_app = True

# A request taking longer than this is a bug or a stuck database: the worker is replaced.
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = 5  # the proxy keeps connections open to us (ignored by sync workers, harmless)

# A worker is replaced after this many requests (with jitter, not all at once): a slow leak
# in a library never grows for weeks. The app keeps no copies in a worker's memory (the one
# caching rule, docs/architecture.md); a new one, forked from the master, has the warm-up's work.
max_requests = _int("GUNICORN_MAX_REQUESTS", 50_000)
max_requests_jitter = max_requests // 10

backlog = 2048
# The app writes one line per request itself (LOG_REQUESTS, LOG_FORMAT); gunicorn's access
# log would say it twice. Errors and worker events go to standard error (journald).
accesslog = None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")

# The proxy on this host says which scheme the browser used (BEHIND_HTTPS_PROXY).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

# Worker temporary files in memory: a slow disk never stalls the heartbeat.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None


def when_ready(server: Any) -> None:
    """Before the first worker: the URL patterns, every template and each language's
    translations built once in the master (``scorekeeper.server.preload``). Should it fail,
    the server starts all the same: each worker builds them on its first requests."""
    from scorekeeper.server import preload

    try:
        compiled = preload.warm_up()
    except Exception as error:  # a broken template is one page's error, not the site's
        server.log.warning("warm-up skipped: %r", error)
    else:
        server.log.info("warm-up: %s templates compiled", compiled)


def pre_fork(server: object, worker: object) -> None:
    """Everything the master holds, frozen out of the garbage collector's sight: each
    worker's full collections walk only what it built (15 to 65 ms less each, here)."""
    from scorekeeper.server import preload

    preload.freeze()


def post_fork(server: object, worker: object) -> None:
    """A worker starts with no database connection of the master's (there should be none)."""
    from django.db import connections

    connections.close_all()
