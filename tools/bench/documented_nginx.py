"""The nginx site of docs/operations.md ("nginx in front of several app servers"), run on
loopback: its addresses and certificates replaced by local ones, nothing else changed. The
documentation is the one source of the settings; the load test and the tests run it as
written, and a change there is what they run.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from tools.bench import local_servers

#: This tree's guide (the tools' own, also when they drive another checkout's app).
DOC = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
HEADING = "## nginx in front of several app servers"

#: Around the documented site: what a loopback nginx of its own needs (no root paths;
#: connections enough for a night's phones).
MAIN = """\
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
"""


class DocumentChanged(RuntimeError):
    """The guide's nginx block no longer has the shape this module rewrites."""


def binary() -> str | None:
    found = shutil.which("nginx")
    if found is None and Path("/usr/sbin/nginx").exists():
        found = "/usr/sbin/nginx"
    return found


def documented_site(doc: Path = DOC) -> str:
    """The ```nginx block under the heading, as written."""
    text = doc.read_text(encoding="utf-8")
    _before, heading, section = text.partition(HEADING + "\n")
    if not heading:
        raise DocumentChanged(f"{doc.name}: no {HEADING!r}")
    found = re.search(r"^```nginx\n(.*?)^```$", section, flags=re.S | re.M)
    if found is None:
        raise DocumentChanged(f"{doc.name}: no nginx block under {HEADING!r}")
    return found.group(1)


#: One ``server <address>:<port> <options>;`` of an upstream block.
SERVER = re.compile(r"server (\d+\.\d+\.\d+\.\d+):(\d+)([^;]*);")


def on_loopback(site: str, *, port: int, app: Sequence[int], events: int | None = None) -> str:
    """The site on 127.0.0.1: one app server per ``app`` port (each with the documented
    servers' options, ``max_fails=0``); the events upstream with the events server on
    ``events`` (its documented options) and the ``app`` ports as its backups, or with the app
    ports alone when no events server is given (they answer the streams 204); listening on
    127.0.0.1:port without TLS, and without its port-80 redirect."""
    site = _upstream(site, "scorekeeper_app", lambda servers: _app_servers(servers, app))
    site = _upstream(
        site, "scorekeeper_events", lambda servers: _events_servers(servers, app, events)
    )
    site, listens = re.subn(r"listen 443 [^;]*;", f"listen 127.0.0.1:{port};", site)
    site, certificates = re.subn(r"\n\s*ssl_certificate(_key)?\s[^;]*;", "", site)
    site, redirects = re.subn(r"\nserver \{ listen 80;[^\n]*", "", site)
    if (listens, certificates, redirects) != (1, 2, 1):
        raise DocumentChanged("the documented server changed")
    return site


def _upstream(site: str, name: str, rewrite: Callable[[list[re.Match[str]]], list[str]]) -> str:
    """The site with the servers of upstream ``name`` replaced by ``rewrite(servers)``'s, in
    the block's own layout (a line each, or one line)."""
    blocks = list(re.finditer(r"upstream " + name + r" \{(.*?)\}", site, flags=re.S))
    if len(blocks) != 1:
        raise DocumentChanged(f"the documented upstream {name} changed")
    block = blocks[0]
    body = block.group(1)
    servers = list(SERVER.finditer(body))
    if not servers:
        raise DocumentChanged(f"the documented upstream {name} has no server")
    between = body[servers[0].end() : servers[1].start()] if len(servers) > 1 else " "
    ours = between.join(rewrite(servers))
    body = body[: servers[0].start()] + ours + body[servers[-1].end() :]
    return site[: block.start(1)] + body + site[block.end(1) :]


def _options(servers: list[re.Match[str]], what: str) -> str:
    """The options the documented ``servers`` share (DocumentChanged if they differ)."""
    options = {server.group(3) for server in servers}
    if len(options) != 1:
        raise DocumentChanged(f"the documented {what} changed")
    return options.pop()


def _app_servers(servers: list[re.Match[str]], app: Sequence[int]) -> list[str]:
    if any(server.group(2) != "8000" for server in servers):
        raise DocumentChanged("the documented app servers changed")
    options = _options(servers, "app servers")
    return [f"server 127.0.0.1:{number}{options};" for number in app]


def _events_servers(
    servers: list[re.Match[str]], app: Sequence[int], events: int | None
) -> list[str]:
    first, backups = servers[0], servers[1:]
    if first.group(2) != "8001" or not backups or "backup" in first.group(3):
        raise DocumentChanged("the documented events server changed")
    backup = _options(backups, "events upstream's backups")
    if "backup" not in backup:
        raise DocumentChanged("the documented events upstream has no backup")
    if events is None:  # the app servers alone: they answer the streams 204
        plain = " ".join(option for option in backup.split() if option != "backup")
        return [f"server 127.0.0.1:{number}{' ' + plain if plain else ''};" for number in app]
    return [
        f"server 127.0.0.1:{events}{first.group(3)};",
        *(f"server 127.0.0.1:{number}{backup};" for number in app),
    ]


def reachable_temp_root() -> Path:
    """Where nginx's worker may write: the temporary folder, unless one of its parents is
    closed to others (pytest's tmp_path, a TMPDIR of 0700), then /tmp.

    Run as root, nginx's worker is www-data: it writes request bodies over 16 KB to
    ``client_body_temp_path``, and a parent it cannot enter makes that a 500."""
    root = Path(tempfile.gettempdir()).resolve()
    for folder in (root, *root.parents):
        if not folder.stat().st_mode & stat.S_IXOTH:
            return Path("/tmp")
    return root


@contextlib.contextmanager
def nginx(site: Callable[[int], str]) -> Iterator[int]:
    """nginx on a free loopback port with the site ``site(port)`` writes; the port."""
    found = binary()
    if found is None:
        raise RuntimeError("nginx is missing: apt-get install -y nginx")
    # A folder of its own that nginx's worker (www-data when run as root) may enter.
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-nginx-", dir=reachable_temp_root()))
    os.chmod(folder, 0o755)
    port = local_servers.free_port()
    (folder / "site.conf").write_text(site(port))
    (folder / "nginx.conf").write_text(MAIN.format(folder=folder))
    process = subprocess.Popen(
        [found, "-c", str(folder / "nginx.conf"), "-p", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        try:
            local_servers.wait_until_listening(port, process, seconds=10)
        except RuntimeError as error:
            stopped = process.poll() is not None and process.stderr is not None
            why = process.stderr.read().decode() if stopped else str(error)
            raise RuntimeError(f"nginx did not start: {why}") from None
        yield port
    finally:
        local_servers.stop(process)
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def in_front_of(app: Sequence[int], events: int | None = None) -> Iterator[int]:
    """The documented site on loopback in front of the app servers on 127.0.0.1:``app``
    (gunicorn's ports) and the events server on 127.0.0.1:``events`` (uvicorn's; none: the
    app servers answer the streams); nginx's port."""
    site = documented_site()
    with nginx(lambda port: on_loopback(site, port=port, app=app, events=events)) as port:
        yield port
