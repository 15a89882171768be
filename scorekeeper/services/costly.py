"""What one account may make the server compute in an hour: its costly actions (a seating
search, a change to an old evening) counted in ``CostlyAction`` and refused past a limit."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from accounts.limits import LIMIT_WINDOW, count_one_at_a_time, minutes_until_free
from accounts.models import User
from scorekeeper.models import CostlyAction, Evening
from scorekeeper.services.common import ServiceError

Kind = CostlyAction.Kind
SEARCHES_PER_HOUR = 10


def per_hour(kind: str) -> int:
    """The hourly limit of ``kind`` (0: none); changes to earlier evenings: a setting."""
    if kind == Kind.SEATING_SEARCH:
        return SEARCHES_PER_HOUR
    return int(settings.OLD_EVENING_CHANGES_PER_HOUR)


class TooCostly(ServiceError):
    """The account did this ``per_hour`` times in the last hour already: nothing was done."""


def _refusal(kind: str, minutes: int) -> TooCostly:
    if kind == Kind.SEATING_SEARCH:
        text = ngettext(
            "You searched for a better seating too many times in the last hour: "
            "try again in %(minutes)d minute.",
            "You searched for a better seating too many times in the last hour: "
            "try again in %(minutes)d minutes.",
            minutes,
        )
    else:
        text = ngettext(
            "You changed evenings dated before the club's last one too many times in the "
            "last hour: try again in %(minutes)d minute, or import the evening's sheet.",
            "You changed evenings dated before the club's last one too many times in the "
            "last hour: try again in %(minutes)d minutes, or import the evening's sheet.",
            minutes,
        )
    return TooCostly(text % {"minutes": minutes})


def charge(*, user: User | None, kind: str) -> None:
    """Count one ``kind`` of action by ``user`` (none for a table link), or raise TooCostly
    past its limit; one account's actions count one after the other (an advisory lock)."""
    limit = per_hour(kind)
    if user is None or not user.is_authenticated or limit == 0:
        return
    count_one_at_a_time(f"costly:{kind}:{user.pk}")
    now = timezone.now()
    since = now - LIMIT_WINDOW
    mine = CostlyAction.objects.filter(user=user, kind=kind)
    mine.filter(at__lt=since).delete()
    recent = mine.filter(at__gte=since)
    if recent.count() >= limit:
        oldest = recent.order_by("at").values_list("at", flat=True)[0]
        raise _refusal(kind, minutes_until_free(oldest, now))
    CostlyAction.objects.create(user=user, kind=kind, at=now)


def charge_alone(*, user: User | None, kind: str) -> None:
    """``charge`` in a transaction of its own, committed before the action it counts."""
    with transaction.atomic():
        charge(user=user, kind=kind)


def charge_old_evening(evening: Evening, by: User | None) -> None:
    """A change to ``evening`` counted when the club has a later evening, up to today (its
    figures are then rated again from the first deal). Tonight's evenings are not counted;
    an evening dated after today does not make the others earlier here."""
    if by is None or not by.is_authenticated or per_hour(Kind.OLD_EVENING_CHANGE) == 0:
        return
    today = timezone.localdate()
    if evening.date >= today:
        return
    later = Evening.objects.filter(club_id=evening.club_id, date__gt=evening.date, date__lte=today)
    if later.exists():
        charge(user=by, kind=Kind.OLD_EVENING_CHANGE)
