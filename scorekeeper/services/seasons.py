"""Seasons: a club's named date ranges. An evening belongs to the seasons its date falls in
(no foreign key); the calendar year is created by itself when its first evening starts."""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scorekeeper.models import Club, Season
from scorekeeper.scoring.inputs import clean_date, clean_season_name
from scorekeeper.services.common import ServiceError


@transaction.atomic
def season_create(*, club: Club, name: str, start: dt.date, end: dt.date) -> Season:
    if not name.strip():
        raise ServiceError(_("A season needs a name."), "name")
    name = clean_season_name(name, "name")  # the rules of every name: ScoringError if not
    start, end = clean_date(start, "start"), clean_date(end, "end")
    if end < start:
        raise ServiceError(_("The last day cannot come before the first day."), "end")
    same = club.seasons.filter(start=start, end=end).first()
    if same is not None:
        raise ServiceError(
            _("The season %(name)s already has these dates.") % {"name": same.name}, "start"
        )
    return Season.objects.create(club=club, name=name, start=start, end=end)


def season_for_date(*, club: Club, date: dt.date) -> Season | None:
    """The season covering the date; of several, the one that started last (the narrowest)."""
    return (
        Season.objects.filter(club=club, start__lte=date, end__gte=date)
        .order_by("-start", "end", "pk")
        .first()
    )


def season_ensure_for(*, club: Club, date: dt.date) -> Season:
    """The season covering the date, creating the calendar year's when none does."""
    season = season_for_date(club=club, date=date)
    if season is not None:
        return season
    start, end = dt.date(date.year, 1, 1), dt.date(date.year, 12, 31)
    try:
        with transaction.atomic():
            return Season.objects.create(club=club, name=str(date.year), start=start, end=end)
    except IntegrityError:  # created at the same moment by another request
        return Season.objects.get(club=club, start=start, end=end)
