"""Production headers and the database-down page."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from tests.factories import make_club

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = ROOT / "templates"

PRODUCTION = {
    "SECRET_KEY": "production-like-" + "k3y!" * 15,
    "ALLOWED_HOSTS": "scores.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://scores.example.org",
    "BEHIND_HTTPS_PROXY": "1",
    "TRUSTED_PROXIES": "127.0.0.1,::1",
}


def run_manage(*args: str, **variables: str) -> subprocess.CompletedProcess[str]:
    environ = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
        | set(PRODUCTION)
    }
    environ.update(variables)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_a_production_environment() -> None:
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_deploy_warns_when_https_is_turned_off_behind_the_proxy() -> None:
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        **PRODUCTION,
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="0",
    )
    assert result.returncode != 0
    assert "security.W004" in result.stderr + result.stdout
    assert "security.W008" in result.stderr + result.stdout


@pytest.mark.django_db
def test_every_page_sends_a_strict_content_security_policy_and_permissions_policy(
    client: Client,
) -> None:
    response = client.get(reverse("counter"))
    policy = response["Content-Security-Policy"]
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "camera=()" in response["Permissions-Policy"]
    assert "geolocation=()" in response["Permissions-Policy"]


def test_no_template_holds_inline_script_style_or_handlers() -> None:
    """The no-inline rule: CSP without 'unsafe-inline' needs none of these (e-mails excepted)."""
    offending = []
    for path in TEMPLATES.rglob("*.html"):
        if "email" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        for pattern in (
            r"\sstyle=",
            r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>",
            r"\shx-on",
            r"\son[a-z]+=",
            r"javascript:",
            r"<style",
        ):
            if re.search(pattern, text):
                offending.append(f"{path.relative_to(ROOT)}: {pattern}")
    assert offending == []


def test_htmx_is_told_not_to_inject_styles_or_eval() -> None:
    base = (TEMPLATES / "base.html").read_text(encoding="utf-8")
    assert '"includeIndicatorStyles": false' in base
    assert '"allowEval": false' in base


@pytest.mark.django_db
def test_a_database_that_cannot_be_reached_answers_503_with_a_short_page(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    club, _players = make_club()
    client.force_login(club.memberships.get().user)

    def refused() -> None:
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    monkeypatch.setattr(connection, "ensure_connection", refused)
    response = client.get(reverse("club", args=[club.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 503
    assert response["Retry-After"]
    text = response.content.decode()
    assert "Scorekeeper est indisponible" in text
    assert "Traceback" not in text


def test_a_refused_csrf_token_is_marked_so_that_a_kept_deal_waits() -> None:
    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/login/", {"email": "ana@example.com"})
    assert response.status_code == 403
    assert response["X-CSRF-Refused"] == "1"
