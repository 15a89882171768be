"""The load test's nginx is the site of docs/operations.md, run on loopback."""

from __future__ import annotations

import http.client
import os
import tempfile
from pathlib import Path

import pytest

from tests.tools.bench.local_upstream import upstream
from tools.bench import documented_nginx

pytestmark = pytest.mark.skipif(
    documented_nginx.binary() is None, reason="needs nginx (apt-get install -y nginx)"
)


def test_the_site_on_loopback_is_the_documented_one_with_local_addresses() -> None:
    site = documented_nginx.on_loopback(documented_nginx.documented_site(), port=9, app=[7, 8])
    assert "server 127.0.0.1:7 max_fails=0;" in site
    assert "server 127.0.0.1:8 max_fails=0;" in site
    assert "10.0.0." not in site and "ssl_certificate" not in site
    assert "listen 127.0.0.1:9;" in site
    assert "client_max_body_size 9m;" in site  # the rest as written


def test_no_upstream_for_a_poll_process_is_left_in_the_documented_site() -> None:
    assert "scorekeeper_polls" not in documented_nginx.documented_site()


def test_a_body_over_16_kb_reaches_the_app_when_the_temporary_folder_is_closed_to_others(
    tmp_path: Path, monkeypatch
) -> None:
    """nginx's worker (www-data under root) writes such a body to a file: in a folder under
    pytest's tmp_path (0700), it answered 500 without asking the app."""
    os.chmod(tmp_path, 0o700)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    def answer(path: str, headers: dict[str, str]) -> tuple[int, bytes]:
        return 200, b"ok"

    with upstream(answer) as (app, seen), documented_nginx.in_front_of([app]) as port:
        link = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        link.request("POST", "/evenings/1/", body=b"x" * 20_000)
        response = link.getresponse()
        assert (response.status, response.read()) == (200, b"ok")
        link.close()
    assert [method for method, _path, _headers in seen] == ["POST"]
