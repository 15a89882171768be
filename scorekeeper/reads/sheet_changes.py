"""Which rows of a game's score sheet a phone must redraw since ``as_of``: from the lowest
deal number saved, corrected, put back or deleted since then to the end. One query a game."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import OuterRef, QuerySet, Subquery
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


def _first_changed(game: Game, since: datetime) -> QuerySet[Game]:
    """The lowest number among the game's deals saved since then, and among its deals
    deleted since then: one row, two numbers (None: none)."""
    saved = Deal.objects.filter(game=OuterRef("pk"), updated_at__gte=since)
    deleted = DeletedDeal.objects.filter(game=OuterRef("pk"), deleted_at__gte=since)
    return Game.objects.filter(pk=game.pk).values_list(
        Subquery(saved.order_by("number").values("number")[:1]),
        Subquery(deleted.order_by("number").values("number")[:1]),
    )


def changed_from(game: Game, since: datetime | None) -> int | None:
    """The first deal number to redraw since ``since`` (1: all), None when nothing changed."""
    if since is None:
        return 1
    found = list(_first_changed(game, since - MARGIN))
    numbers = [n for n in (found[0] if found else ()) if n is not None]
    return min(numbers) if numbers else None
