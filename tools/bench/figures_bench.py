"""The club figures' rows of ``manage.py benchmark``: their pages, warm and just after a deal
save; the ratings replayed after an old evening changed; and the prediction figure.

The pages have the target of every page (5× the minimal page). The replay after a correction
has its own (under 2 s for the whole season): an old evening's version is bumped, as saving
a correction to one of its deals does, and the ratings page is requested: every deal of the
season is rated again, in order.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from accounts.models import User
from scorekeeper.models import Evening, Season
from scorekeeper.reads.club_figures import club_figures
from scorekeeper.services.figures import refresh_figures
from tools.bench.pages import (
    Page,
    Timing,
    _median_ms,
    _queries,
    _time,
    after_save_timing,
    minimal_page,
)
from tools.bench.rating_benchmark import describe, quality_line
from tools.bench.rating_club import synthetic_club
from tools.bench.synthetic_club import Built, deal_form, trim_tonight

REPLAY_SECONDS = 2.0  # the ratings of the whole season rated again after a correction
REPLAY_REPEAT = 3
FIGURES_PAGES = (
    ("rating page", "figures_ratings"),
    ("head to head page", "figures_head_to_head"),
    ("records page", "figures_records"),
    ("contracts page", "figures_contracts"),
)
AFTER_SAVE = ("rating page", "head to head page", "records page")


def measure_figures(built: Built, repeat: int) -> tuple[list[Timing], Timing, list[str]]:
    """(the pages' timings with a target, the replay after a correction, prediction lines)."""
    client = Client()
    client.force_login(User.objects.get(pk=built.user_id))
    query = {"season": built.season_id}
    urls = {name: reverse(url, args=[built.club_id]) for name, url in FIGURES_PAGES}
    minimal = minimal_page(client)
    timings = [
        _time(Page(name, _getter(client, urls[name], query)), repeat, minimal=minimal)
        for name, _url in FIGURES_PAGES
    ]
    save_url = reverse("deal_create", args=[built.evening_id, built.game_id])
    form = deal_form(built.present)

    def save() -> None:
        client.post(save_url, {**form, "deal-idempotency_key": uuid.uuid4().hex})

    for name in AFTER_SAVE:
        trim_tonight(built)
        request = _getter(client, urls[name], query)
        timings.append(after_save_timing(f"{name} after a save", save, request, minimal, repeat))
    replay = _replay_after_correction(client, urls["rating page"], query, built)
    return timings, replay, prediction_lines(built)


def _getter(client: Client, url: str, query: dict[str, object]) -> Callable[[], HttpResponse]:
    return lambda: client.get(url, query)


def _replay_after_correction(
    client: Client, url: str, query: dict[str, object], built: Built
) -> Timing:
    """The ratings page after an old evening changed: the whole season rated again."""
    first = Evening.objects.filter(club_id=built.club_id).order_by("date", "pk").first()

    def corrected() -> HttpResponse:
        Evening.objects.filter(pk=first.pk).touch()
        refresh_figures([first.pk])  # as the services do: the figures from that evening on
        return client.get(url, query)

    corrected()
    median = _median_ms(corrected, REPLAY_REPEAT, 200)
    return Timing("rating after correcting an old deal", median, _queries(corrected), limit=0.0)


def prediction_lines(built: Built) -> list[str]:
    """The ratings against the base rate: on synthetic clubs, and on the benchmark's club."""
    lines = [
        quality_line(f"synthetic club, skill spread {spread}", synthetic_club(spread=spread).deals)
        for spread in (1.0, 0.0)
    ]
    season = Season.objects.get(pk=built.season_id)
    figures = club_figures(built.club_id, start=season.start, end=season.end)
    lines.append(describe("the benchmark's club (every deal shape in turn)", figures.quality))
    return lines
