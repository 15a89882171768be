"""The sign-in limits are exact under bursts.

30 simultaneous requests for one address sent 7 mails for a limit of 5 on PostgreSQL, and
40 from one IP passed 21 times for 20. Threads with their own connections, so this runs in
the PostgreSQL pass of .ci/run (SQLite serialises writers by itself).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.core import mail
from django.db import connection, connections

from accounts import services
from accounts.models import LoginRequest

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (the second pass of .ci/run)"
)


def burst(count: int, request: Callable[[int], None]) -> list[BaseException]:
    barrier = threading.Barrier(count)
    errors: list[BaseException] = []

    def one(index: int) -> None:
        try:
            barrier.wait()
            request(index)
        except services.RateLimited:
            pass
        except BaseException as error:  # reported by the test
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


def ask(email: str, ip: str) -> None:
    services.login_request(email=email, ip=ip, language="en", base_url="http://testserver/")


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_thirty_requests_at_once_for_one_address_send_exactly_five_mails() -> None:
    errors = burst(30, lambda i: ask("ana@example.com", f"192.0.2.{i + 1}"))
    assert errors == []
    assert LoginRequest.objects.filter(mail_sent=True).count() == services.MAILS_PER_ADDRESS
    assert len(mail.outbox) == services.MAILS_PER_ADDRESS


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_forty_requests_at_once_from_one_ip_pass_exactly_twenty_times() -> None:
    errors = burst(40, lambda i: ask(f"p{i}@example.com", "198.51.100.7"))
    assert errors == []
    assert LoginRequest.objects.count() == services.REQUESTS_PER_IP
    assert len(mail.outbox) == services.REQUESTS_PER_IP
