"""The project's settings, as the test suite runs them.

Only what a test run needs differs: a throw-away secret key, static files served without
the production manifest (the suite does not run collectstatic) and the development app
``tools.bench`` installed (its commands are tested).
"""

from __future__ import annotations

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-" + "x" * 40)
os.environ.setdefault("LOG_REQUESTS", "0")  # a line per request would drown the test output
os.environ.setdefault("DEV_TOOLS", "1")  # tools/bench: the benchmark's and load test's tests

# pytest-xdist (`make test` runs the suite in one worker per core): each worker has its own
# test database (pytest-django adds the worker's name to it) and, with REDIS_URL, its own
# Redis database, db 1 for gw0, 2 for gw1... Every test empties the cache (tests/conftest.py)
# and database ids repeat from worker to worker: one shared database would mix them. The
# environment is rewritten, not only the setting: app servers started by tests inherit it.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker and os.environ.get("REDIS_URL"):
    _base, _slash, _db = os.environ["REDIS_URL"].rpartition("/")
    os.environ["REDIS_URL"] = f"{_base}/{int(_worker.removeprefix('gw')) + 1}"

from scorekeeper.settings import *  # noqa: E402, F403
from scorekeeper.settings import STORAGES  # noqa: E402

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Static files come from the apps' folders, as in development.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# SQLite: the tests' database is a file, not shared memory. The browser tests' live server
# answers several requests at once (a save while the live follow polls); on one shared
# in-memory connection SQLite answers "database table is locked", where a file waits its
# turn as production does (IMMEDIATE transactions with a busy timeout).
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".test-db.sqlite3")}  # noqa: F405
