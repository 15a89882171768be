"""The hourly limits of sign-in (and invitation) mails, and what a refusal says: 5 mails per
address and 20 requests per IP an hour, counted in the database (one after the other on
PostgreSQL: an advisory lock each).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math

from django.db import connection
from django.utils.translation import ngettext

LIMIT_WINDOW = dt.timedelta(hours=1)
MAILS_PER_ADDRESS = 5
REQUESTS_PER_IP = 20


class LoginRefused(Exception):
    """A sign-in step the rules refuse; ``message`` is ready to show, ``status`` to answer."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RateLimited(LoginRefused):
    status = 429

    def __init__(self, message: str, *, per_address: bool = False) -> None:
        super().__init__(message)
        self.per_address = per_address  # the address's limit (else the network's)


class MailNotSent(LoginRefused):
    status = 503


def _lock_key(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


def count_one_at_a_time(*names: str) -> None:
    """Serialise, until the end of the transaction, the transactions that count ``names``
    (advisory locks in one order)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for key in sorted({_lock_key(f"accounts.login.{name}") for name in names}):
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def minutes_until_free(oldest: dt.datetime, now: dt.datetime) -> int:
    return max(1, math.ceil((oldest + LIMIT_WINDOW - now).total_seconds() / 60))


def too_many(minutes: int, *, per_address: bool) -> RateLimited:
    if per_address:
        text = ngettext(
            "Too many codes were sent to this address in the last hour. "
            "Nothing was sent. Try again in %(minutes)d minute.",
            "Too many codes were sent to this address in the last hour. "
            "Nothing was sent. Try again in %(minutes)d minutes.",
            minutes,
        )
    else:
        text = ngettext(
            "Too many sign-in requests from your network in the last hour. "
            "Nothing was sent. Try again in %(minutes)d minute.",
            "Too many sign-in requests from your network in the last hour. "
            "Nothing was sent. Try again in %(minutes)d minutes.",
            minutes,
        )
    return RateLimited(text % {"minutes": minutes}, per_address=per_address)
