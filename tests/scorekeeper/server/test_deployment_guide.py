"""The deployment guide and the start-up checks agree with what the app needs behind a proxy."""

from __future__ import annotations

import re
from pathlib import Path

from django.test import override_settings

from scorekeeper.screens.clubs.archive_views import MAX_ARCHIVE_BYTES
from scorekeeper.server.checks import proxy_is_trusted
from tests.scorekeeper.server.test_production_headers import PRODUCTION, run_manage

GUIDE = (Path(__file__).resolve().parents[3] / "docs" / "operations.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The guide's section under ``## title``, up to the next one."""
    return GUIDE.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_guides_environment_file_names_the_proxy_as_trusted() -> None:
    deployment = section("Deployment")
    env_file = deployment.split("**The environment file**", 1)[1].split("**manage.py", 1)[0]
    assert re.search(r"^\s+BEHIND_HTTPS_PROXY=1$", env_file, re.MULTILINE)
    assert re.search(r"^\s+TRUSTED_PROXIES=127\.0\.0\.1,::1$", env_file, re.MULTILINE)


def test_the_guides_nginx_takes_an_archive_as_large_as_the_web_cap() -> None:
    nginx = section("nginx in front of several app servers")
    size = re.search(r"client_max_body_size (\d+)m;", nginx).group(1)
    assert int(size) * 1024 * 1024 > MAX_ARCHIVE_BYTES + 64 * 1024  # the form's own bytes


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"), TRUSTED_PROXIES=[])
def test_a_proxy_not_named_in_trusted_proxies_is_a_start_up_warning() -> None:
    (warning,) = proxy_is_trusted()
    assert warning.id == "scorekeeper.W001" and "TRUSTED_PROXIES" in warning.hint


@override_settings(
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"), TRUSTED_PROXIES=["127.0.0.1"]
)
def test_a_trusted_proxy_gives_no_warning() -> None:
    assert proxy_is_trusted() == []


def test_check_fails_on_the_warning_when_the_proxy_is_not_trusted() -> None:
    environment = {**PRODUCTION, "TRUSTED_PROXIES": ""}
    result = run_manage("check", "--fail-level", "WARNING", **environment)
    assert result.returncode != 0 and "scorekeeper.W001" in result.stderr + result.stdout


def test_a_request_through_an_untrusted_local_proxy_is_noticed_once_in_the_log(caplog) -> None:
    from accounts import views
    from accounts.client_ip import through_untrusted_proxy

    meta = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.5"}
    assert through_untrusted_proxy(meta, [])
    assert not through_untrusted_proxy(meta, ["127.0.0.1"])
    assert not through_untrusted_proxy({"REMOTE_ADDR": "127.0.0.1"}, [])
    assert not through_untrusted_proxy({**meta, "REMOTE_ADDR": "93.184.216.34"}, [])

    class Request:
        META = meta

    views._warned_untrusted_proxy = False
    with override_settings(TRUSTED_PROXIES=[]):
        views._client_ip(Request())
        views._client_ip(Request())
    warnings = [r for r in caplog.records if "TRUSTED_PROXIES does not name" in r.getMessage()]
    assert len(warnings) == 1
