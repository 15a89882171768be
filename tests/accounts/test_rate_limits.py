"""Hourly limits on sign-in mails, kept in the database so that every server process sees them."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import LoginRequest

pytestmark = pytest.mark.django_db


def ask(email: str, ip: str = "192.0.2.1", **extra: str):
    return Client(REMOTE_ADDR=ip).post(
        "/login/", {"email": email}, HTTP_ACCEPT_LANGUAGE="en", **extra
    )


def test_at_most_5_mails_per_address_per_hour() -> None:
    for number in range(5):
        # From different networks, so that only the address limit can apply.
        assert ask("ana@example.com", ip=f"192.0.2.{number + 1}").status_code == 302
    refused = ask("ANA@example.com ", ip="198.51.100.7")
    assert refused.status_code == 429
    assert "Too many codes were sent to this address" in refused.text
    assert "Nothing was sent" in refused.text
    assert 'value="ANA@example.com "' in refused.text  # what was typed is kept
    assert len(mail.outbox) == 5
    assert ask("ben@example.com", ip="198.51.100.7").status_code == 302


def test_the_address_limit_lifts_after_an_hour() -> None:
    for _ in range(5):
        ask("ana@example.com")
    assert ask("ana@example.com").status_code == 429
    later = timezone.now() + dt.timedelta(hours=1, seconds=1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert ask("ana@example.com").status_code == 302
    assert len(mail.outbox) == 6


def test_at_most_20_requests_per_ip_per_hour() -> None:
    for number in range(20):
        assert ask(f"player{number}@example.com").status_code == 302
    refused = ask("someone.else@example.com")
    assert refused.status_code == 429
    assert "Too many sign-in requests from your network" in refused.text
    assert len(mail.outbox) == 20
    assert ask("someone.else@example.com", ip="203.0.113.9").status_code == 302


def test_refused_requests_of_an_address_still_count_for_its_ip() -> None:
    for _ in range(20):
        ask("ana@example.com")
    assert len(mail.outbox) == 5
    assert ask("ben@example.com").status_code == 429


def test_the_limits_count_requests_recorded_by_other_processes() -> None:
    """Another server process shares nothing with this one but the database."""
    now = timezone.now()
    LoginRequest.objects.bulk_create(
        LoginRequest(email="ana@example.com", ip="192.0.2.50", created_at=now, mail_sent=True)
        for _ in range(5)
    )
    assert ask("ana@example.com").status_code == 429
    LoginRequest.objects.bulk_create(
        LoginRequest(email=f"p{n}@example.com", ip="192.0.2.60", created_at=now) for n in range(20)
    )
    assert ask("ben@example.com", ip="192.0.2.60").status_code == 429
    assert mail.outbox == []


def test_the_message_says_when_to_try_again() -> None:
    start = timezone.now()
    with mock.patch("django.utils.timezone.now", return_value=start):
        for _ in range(5):
            ask("ana@example.com")
    with mock.patch("django.utils.timezone.now", return_value=start + dt.timedelta(minutes=20)):
        refused = ask("ana@example.com")
    assert "Try again in 40 minutes" in refused.text
