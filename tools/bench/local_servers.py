"""Servers on this machine's loopback for the load test and the scale-out test: a
PostgreSQL database of their own, a Redis, gunicorn workers, uvicorn for the event streams
(nginx in front of them: ``documented_nginx``). Nothing listens beyond 127.0.0.1, and
everything started here is stopped here.

The app servers run the app whose settings this process has (``settings.BASE_DIR``): this
checkout's, or another's that the load test drives for a comparison (``compare_main``).
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any


def app_root() -> Path:
    """The checkout whose app the servers run: the settings' ``BASE_DIR`` once Django has
    settings (another checkout's when the load test drives it), else this one."""
    from django.conf import settings

    if settings.configured or os.environ.get("DJANGO_SETTINGS_MODULE"):
        return Path(settings.BASE_DIR)
    return Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_up(
    url: str, seconds: float = 60.0, process: subprocess.Popen[Any] | None = None
) -> None:
    """Until ``url`` answers 200 (or the process died, or time ran out: RuntimeError)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{url}: the server stopped with status {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url}: no answer within {seconds:.0f} s")


def stop(process: subprocess.Popen[Any], seconds: float = 15.0) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


@contextlib.contextmanager
def redis_server() -> Iterator[str | None]:
    """A throw-away Redis on a free loopback port (no disk), or None without redis-server."""
    binary = shutil.which("redis-server")
    if binary is None:
        yield None
        return
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process)


@contextlib.contextmanager
def postgres_database(url: str, suffix: str) -> Iterator[str]:
    """A new database next to the one ``url`` names (``<name>_<suffix>``), dropped after."""
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(url)
    if config["ENGINE"] != "django.db.backends.postgresql":
        raise RuntimeError("a postgres:// DATABASE_URL is needed")
    name = f"{config['NAME']}_{suffix}"
    connect = {
        "host": config["HOST"] or None,
        "port": config["PORT"] or None,
        "user": config["USER"] or None,
        "password": config["PASSWORD"] or None,
        "dbname": config["NAME"],
        "autocommit": True,
    }
    try:
        connection = psycopg.connect(**connect)
    except psycopg.OperationalError as error:  # said in one line, not a traceback
        from django.core.management.base import CommandError

        where = f"{config['HOST'] or 'localhost'}:{config['PORT'] or 5432}"
        reason = str(error).strip().splitlines()[0].rsplit(": ", 1)[-1]  # "Connection refused"
        raise CommandError(
            f"PostgreSQL at {where} does not answer ({reason}): start it"
            " (service postgresql start) or fix DATABASE_URL"
        ) from None
    with connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    base, _sep, _old = url.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(**connect) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def server_environment(
    *, database_url: str, redis_url: str | None, secret_key: str, static_root: str
) -> dict[str, str]:
    """Production settings on loopback: DEBUG off, the given database and cache, the static
    files collected into ``static_root`` (the servers started with it serve them)."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "DEV_TOOLS", "REDIS_URL", "ENV_FILE", "DJANGO_SETTINGS_MODULE"}
    }
    environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
            "DATABASE_URL": database_url,
            "SECRET_KEY": secret_key,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "STATIC_ROOT": static_root,
            "LOG_REQUESTS": "0",
            # One member saves at every table, on settled evenings too (--dates spread).
            "OLD_EVENING_CHANGES_PER_HOUR": "0",
        }
    )
    if redis_url:
        environ["REDIS_URL"] = redis_url
    collectstatic(environ)
    return environ


def collectstatic(environ: Mapping[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=app_root(),
        env=dict(environ),
        check=True,
    )


def gunicorn(
    port: int, environ: Mapping[str, str], workers: int | None = None
) -> subprocess.Popen[Any]:
    """gunicorn with the project's gunicorn.conf.py, bound to 127.0.0.1:port."""
    environ = {**environ, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_LOG_LEVEL": "warning"}
    if workers is not None:
        environ["WEB_CONCURRENCY"] = str(workers)
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "scorekeeper.wsgi"],
        cwd=app_root(),
        env=environ,
        stdout=subprocess.DEVNULL,
    )


#: Open files the events server may hold: a stream each (as the unit's LimitNOFILE).
STREAM_FILES = 65536


def uvicorn(port: int, environ: Mapping[str, str]) -> subprocess.Popen[Any]:
    """uvicorn serving the app's event streams (``scorekeeper.asgi``) on 127.0.0.1:port, as the
    ``scorekeeper-events`` unit of docs/operations.md runs it (its log at warnings, as
    gunicorn's here), with as many open files as the hard limit allows (up to
    ``STREAM_FILES``)."""
    address = ["--host", "127.0.0.1", "--port", str(port)]
    options = ["--no-access-log", "--proxy-headers", "--lifespan", "off", "--log-level", "warning"]
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "scorekeeper.asgi:application", *address, *options],
        cwd=app_root(),
        env=dict(environ),
        stdout=subprocess.DEVNULL,
        preexec_fn=raise_open_files,
    )


def raise_open_files(wanted: int = STREAM_FILES) -> int:
    """This process's soft limit of open files raised towards ``wanted`` (never past the hard
    limit); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < ceiling:
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
        return ceiling
    return soft


def wait_until_listening(port: int, process: subprocess.Popen[Any], seconds: float = 30) -> None:
    """Until something accepts connections on 127.0.0.1:port (RuntimeError if the process
    stopped or time ran out)."""
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        if process.poll() is not None:
            raise RuntimeError(f"port {port}: the server stopped with status {process.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"port {port}: nothing listening within {seconds:.0f} s")
        time.sleep(0.05)


def _stat(pid: int | str) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command's name (None once the process is gone).

    Index 1 is the parent's pid, 11 and 12 the process's user and system CPU ticks, 13 and 14
    those of the children it has waited for.
    """
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def process_tree(pid: int) -> list[int]:
    """The process and its children (gunicorn's workers, nginx's), from /proc."""
    found = [pid]
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat(entry.name)
        if fields is not None and int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time these processes have used so far (gone ones count 0)."""
    total = 0
    for pid in pids:
        fields = _stat(pid)
        if fields is not None:
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of a process and its children, those it has already reaped included.

    gunicorn replaces a worker after a number of requests: its CPU then shows in the
    master's cutime/cstime, not in any process still alive.
    """
    fields = _stat(pid)
    if fields is None:
        return 0.0
    reaped = (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")  # cutime, cstime
    return reaped + cpu_seconds(process_tree(pid))  # the tree holds the process itself


def machine_cpu_seconds() -> tuple[float, float]:
    """The whole machine's CPU time so far (every core, from /proc/stat): busy (user, nice,
    system, interrupts; guests are in user), and stolen by the host of a virtual machine."""
    with open("/proc/stat", encoding="ascii") as stat:
        fields = [int(value) for value in stat.readline().split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, steal / tick


def parent_pid(pid: int) -> int:
    """The process that started ``pid`` (from /proc)."""
    fields = _stat(pid)
    if fields is None:
        raise ProcessLookupError(pid)
    return int(fields[1])


def postgres_backends(url: str) -> list[int]:
    """The server processes of the connections open to the database ``url`` names."""
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(url)
    with psycopg.connect(
        host=config["HOST"] or None,
        port=config["PORT"] or None,
        user=config["USER"] or None,
        password=config["PASSWORD"] or None,
        dbname=config["NAME"],
        autocommit=True,
    ) as connection:
        rows = connection.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (config["NAME"],),
        ).fetchall()
    return [int(row[0]) for row in rows]
