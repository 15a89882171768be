"""The load test's nginx is the site of docs/operations.md, run on loopback."""

from __future__ import annotations

import http.client
import os
import tempfile
from pathlib import Path

import pytest

from tests.tools.bench.local_upstream import upstream
from tools.bench import documented_nginx, local_servers

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


def test_the_events_upstream_on_loopback_is_the_events_server_then_the_app_servers_as_backup() -> (
    None
):
    site = documented_nginx.on_loopback(
        documented_nginx.documented_site(), port=9, app=[7, 8], events=6
    )
    assert (
        "upstream scorekeeper_events { server 127.0.0.1:6 max_fails=0;"
        " server 127.0.0.1:7 backup; server 127.0.0.1:8 backup; }"
    ) in site
    assert "8001" not in site and "10.0.0." not in site


def test_without_an_events_server_the_app_servers_answer_the_streams() -> None:
    site = documented_nginx.on_loopback(documented_nginx.documented_site(), port=9, app=[7, 8])
    assert "upstream scorekeeper_events { server 127.0.0.1:7; server 127.0.0.1:8; }" in site


def test_the_documented_events_location_streams_unbuffered_with_the_proxy_headers() -> None:
    site = documented_nginx.documented_site()
    location = site.split("location ~ ^/(evenings/[0-9]+|shared/[^/]+)/events/$ {", 1)[1]
    location = location.split("}", 1)[0]
    for line in (
        "proxy_pass http://scorekeeper_events;",
        "proxy_buffering off;",
        "proxy_read_timeout 1h;",
        "proxy_http_version 1.1;",
        'proxy_set_header Connection "";',
        "proxy_set_header Host $host;",
        "proxy_set_header X-Forwarded-Proto $scheme;",
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
    ):
        assert line in location


def stream_status(port: int, path: str) -> tuple[int, bytes]:
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    link.request("GET", path)
    response = link.getresponse()
    answer = (response.status, response.read())
    link.close()
    return answer


def test_the_streams_go_to_the_events_server_and_to_the_app_while_it_is_down() -> None:
    def events(path: str, headers: dict[str, str]) -> tuple[int, bytes]:
        return 200, b"events"

    def app(path: str, headers: dict[str, str]) -> tuple[int, bytes]:
        return (204, b"") if path.endswith("/events/") else (200, b"app")

    with upstream(events) as (events_port, to_events), upstream(app) as (app_port, to_app):
        with documented_nginx.in_front_of([app_port], events=events_port) as port:
            assert stream_status(port, "/evenings/3/events/") == (200, b"events")
            assert stream_status(port, "/shared/abc/events/") == (200, b"events")
            assert stream_status(port, "/evenings/3/live/") == (200, b"app")
        down = local_servers.free_port()
        with documented_nginx.in_front_of([app_port], events=down) as port:
            assert stream_status(port, "/evenings/3/events/") == (204, b"")
    assert [path for _method, path, _headers in to_events] == [
        "/evenings/3/events/",
        "/shared/abc/events/",
    ]
    sent = to_events[0][2]
    assert "Connection" not in sent  # HTTP/1.1 kept alive, not nginx's "close"
    assert sent["X-Forwarded-For"] == "127.0.0.1" and sent["X-Forwarded-Proto"] == "http"
    assert [path for _method, path, _headers in to_app] == [
        "/evenings/3/live/",
        "/evenings/3/events/",
    ]
