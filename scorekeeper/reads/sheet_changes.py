"""Which deals of a game's score sheet changed since a moment: what a phone must redraw.

A page shows the sheet as it stood at ``as_of`` (the server's clock, read before the sheet).
A deal saved, corrected or put back since then changes its own row and the running totals of
every later row; a deletion moves every later row up one. So the rows to redraw are those
from the lowest deal number touched since then to the end. Two queries per game.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Min
from django.utils import timezone

from scorekeeper.models import Deal, DeletedDeal, Game

#: Read a little before the page's moment: a change committed while the page was being read
#: is sent again rather than missed (redrawing a row twice is harmless).
MARGIN = timedelta(seconds=1)


def as_of_now() -> int:
    """The moment a page is read, in milliseconds (what it sends back as ``since``)."""
    return int(timezone.now().timestamp() * 1000)


def moment(since_ms: int | None) -> datetime | None:
    """The moment a page sent back (``since``), or None when it sent none that makes sense."""
    if since_ms is None or since_ms <= 0:
        return None
    try:
        return datetime.fromtimestamp(since_ms / 1000, tz=timezone.get_current_timezone())
    except (OverflowError, OSError, ValueError):
        return None


def changed_from(game: Game, since: datetime | None) -> int | None:
    """The first deal number to redraw since ``since`` (1: all), None when nothing changed."""
    if since is None:
        return 1
    since = since - MARGIN
    saved = Deal.objects.filter(game=game, updated_at__gte=since).aggregate(n=Min("number"))["n"]
    deleted = DeletedDeal.objects.filter(game=game, deleted_at__gte=since).aggregate(
        n=Min("number")
    )["n"]
    numbers = [n for n in (saved, deleted) if n is not None]
    return min(numbers) if numbers else None
