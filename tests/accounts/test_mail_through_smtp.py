"""The sign-in mail goes out through a real SMTP server on loopback, and its code works."""

from __future__ import annotations

import email
import re
import socket
from collections.abc import Iterator
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.test import Client

pytestmark = pytest.mark.django_db


class Inbox:
    """An aiosmtpd handler that keeps every message it receives."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.original_content))
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp_inbox(settings) -> Iterator[Inbox]:
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = controller.port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    try:
        yield inbox
    finally:
        controller.stop()


def test_a_code_received_over_smtp_signs_in(smtp_inbox: Inbox, mailoutbox: list) -> None:
    client = Client()
    assert client.post("/login/", {"email": "max@example.com"}).status_code == 302
    assert mailoutbox == []  # it went through SMTP, not the test outbox
    [message] = smtp_inbox.messages
    assert message["To"] == "max@example.com"
    assert message["Content-Language"] == "fr"
    text = next(
        part.get_payload(decode=True).decode()
        for part in message.walk()
        if part.get_content_type() == "text/plain"
    )
    code = re.search(r"\b(\d{6})\b", text).group(1)
    response = client.post("/login/code/", {"code": code})
    assert response.status_code == 302
    assert client.session["_auth_user_id"]
