"""The nginx site of docs/operations.md ("nginx in front of several app servers"), run on
loopback: its addresses and certificates replaced by local ones, nothing else changed. The
documentation is the one source of the settings; a change there is what the tests run.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from django.conf import settings

from tools.bench import local_servers

DOC = Path(settings.BASE_DIR) / "docs" / "operations.md"
HEADING = "## nginx in front of several app servers"

#: Around the documented site: what a loopback nginx of its own needs (no root paths).
MAIN = """\
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
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


def binary() -> str | None:
    found = shutil.which("nginx")
    if found is None and Path("/usr/sbin/nginx").exists():
        found = "/usr/sbin/nginx"
    return found


def documented_site() -> str:
    """The ```nginx block under the heading, as written."""
    text = DOC.read_text(encoding="utf-8")
    _before, heading, section = text.partition(HEADING + "\n")
    assert heading, f"{DOC.name}: no {HEADING!r}"
    found = re.search(r"^```nginx\n(.*?)^```$", section, flags=re.S | re.M)
    assert found, f"{DOC.name}: no nginx block under {HEADING!r}"
    return found.group(1)


def on_loopback(site: str, *, port: int, app: Sequence[int], polls: Sequence[int]) -> str:
    """The site with its upstream servers on the given loopback ports (in order: the
    documented 10.0.0.x:8000 ones to ``app``, the :8001 ones to ``polls``), listening on
    127.0.0.1:port without TLS, and without its port-80 redirect."""
    ports = {"8000": iter(app), "8001": iter(polls)}
    site, servers = re.subn(
        r"server \d+\.\d+\.\d+\.\d+:(8000|8001)",
        lambda match: f"server 127.0.0.1:{next(ports[match.group(1)])}",
        site,
    )
    assert servers == len(app) + len(polls), "the documented upstreams changed"
    site, listens = re.subn(r"listen 443 [^;]*;", f"listen 127.0.0.1:{port};", site)
    site, certificates = re.subn(r"\n\s*ssl_certificate(_key)?\s[^;]*;", "", site)
    site, redirects = re.subn(r"\nserver \{ listen 80;[^\n]*", "", site)
    assert (listens, certificates, redirects) == (1, 2, 1), "the documented server changed"
    return site


@contextlib.contextmanager
def nginx(site: Callable[[int], str]) -> Iterator[int]:
    """nginx on a free loopback port with the site ``site(port)`` writes; the port."""
    found = binary()
    assert found is not None, "nginx is missing: apt-get install -y nginx"
    # Its own folder that nginx's worker (www-data when run as root) may enter: a request
    # body over 16 KB goes to a temporary file there.
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-nginx-"))
    folder.chmod(0o755)
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
