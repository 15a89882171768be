"""One way to read ids and numbers from URLs, query strings and forms: ASCII digits only
and within a 64-bit id (``parse_id``, the ``id`` and ``token`` converters), and a 400 for a
path holding a NUL character (``RejectNulMiddleware``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.urls.converters import IntConverter, StringConverter
from django.utils.translation import gettext as _

MAX_ID = 2**63 - 1  # the largest value of a BigAutoField (and of a signed 64-bit integer)
_DIGITS = re.compile(r"[0-9]{1,19}")


def parse_count(value: object, *, maximum: int = MAX_ID) -> int | None:
    """``value`` as a whole number from 0 to ``maximum`` (ASCII digits only), or None."""
    if not isinstance(value, str) or not _DIGITS.fullmatch(value):
        return None
    number = int(value)
    return number if number <= maximum else None


def parse_id(value: object) -> int | None:
    """``value`` as a database id (ASCII digits, 1..2**63-1), or None for anything else."""
    number = parse_count(value)
    return number if number else None


class IdConverter(IntConverter):
    """``<id:name>``: a database id; anything else (too big, "²") does not match: 404."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = parse_id(value)
        if number is None:
            raise ValueError(value)
        return number


class TokenConverter(StringConverter):
    """``<token:name>``: a URL-safe random token (share links, sign-in links)."""

    regex = "[A-Za-z0-9_-]{1,100}"


class RejectNulMiddleware:
    """400 for a request whose path holds a NUL character (it would reach a URL parameter).

    Query strings and form fields are read through ``parse_id`` or forms, whose text fields
    refuse NUL themselves; a page that uses no database (the counter) takes any query string.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path:
            return HttpResponseBadRequest(
                _("The address holds a character that is not allowed."),
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)
