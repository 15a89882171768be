"""A page's many links to one view, from one ``reverse`` (a row per player, evening…)."""

from __future__ import annotations

from collections.abc import Callable

from django.urls import reverse


def address_of(name: str, *args: object) -> Callable[[object], str]:
    """The address of the view ``name`` for any last argument (an id): one ``reverse``."""
    head, _zero, tail = reverse(name, args=[*args, 0]).rpartition("/0/")
    return lambda last: f"{head}/{last}/{tail}"
