"""The pages ``manage.py benchmark`` times, in-process, for a signed-in member.

Each page is requested through the whole middleware with django.test.Client: twice to warm
up, once to count its SQL queries, then ``repeat`` times for the median. Then the season's
standings three more ways: after a restart (local memory empty), with every cache empty, and
just after a deal was saved.
"""

from __future__ import annotations

import statistics
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache
from django.core.management.base import CommandError
from django.db import connections
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from accounts.models import User
from scorekeeper.management.bench.synthetic_club import Built, deal_form, trim_tonight
from scorekeeper.models import Evening
from scorekeeper.server import shared_cache

TARGET = 5.0  # every page within 5× the minimal page
SAVE_TARGET = 10.0  # the deal save within 10×
COUNTER_QUERY = {
    "side": "attack",
    "mode": "cards",
    "bouts": 2,
    "kings": 3,
    "queens": 2,
    "knights": 2,
    "jacks": 1,
    "lows": 20,
    "attack_bouts": 2,
    "contract": "garde",
}

Request = Callable[[], HttpResponse]


@dataclass
class Timing:
    name: str
    median_ms: float
    queries: int
    limit: float = TARGET
    ratio: float = 0.0


@dataclass
class Page:
    """A request to time, the status it must answer and its target (× the minimal page)."""

    name: str
    request: Request
    expect: int = 200
    limit: float = TARGET


def bench_settings() -> override_settings:
    """In-process requests as in production: no debug, the extra reference URLs."""
    return override_settings(
        DEBUG=False,
        ALLOWED_HOSTS=["testserver"],
        ROOT_URLCONF="scorekeeper.management.bench.urls",
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        # A cache of its own: never the production Redis (the benchmark empties its cache).
        CACHES={
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": "scorekeeper-benchmark",
                "OPTIONS": {"MAX_ENTRIES": 5000},
            }
        },
    )


def measure(built: Built, repeat: int) -> tuple[Timing, Timing, list[Timing], list[Timing]]:
    """The bare view, the minimal page, the pages with a target, and those for information."""
    client = Client()
    client.force_login(User.objects.get(pk=built.user_id))
    season_url = reverse("season", args=[built.club_id, built.season_id])
    pages = _pages(client, built, season_url)
    timings = [_time(page, repeat) for page in pages]
    after_restart, cold = _cache_timings(client, season_url, repeat)
    timings.insert(-1, after_restart)
    save = pages[-1].request
    after_save = _after_save(client, built, save, season_url, repeat)
    return timings[0], timings[1], [*timings[2:], after_save], [cold]


def _pages(client: Client, built: Built, season_url: str) -> list[Page]:
    """The pages with a target, in the table's order; the deal save last."""
    form = deal_form(built.present)
    evening_url = reverse("evening", args=[built.evening_id])
    preview_url = reverse("deal_preview", args=[built.evening_id, built.game_id])
    save_url = reverse("deal_create", args=[built.evening_id, built.game_id])
    player_url = reverse("player", args=[built.club_id, built.player_id])
    counter_url = reverse("counter")
    live_url = reverse("evening_live", args=[built.evening_id])
    version = Evening.objects.get(pk=built.evening_id).version  # no save before its row

    def live_unchanged() -> HttpResponse:
        return _served_by_wsgi(client, live_url, {"version": version})

    def save() -> HttpResponse:
        return client.post(save_url, {**form, "deal-idempotency_key": uuid.uuid4().hex})

    return [
        Page("bare view", lambda: client.get(reverse("benchmark_bare"))),
        Page("minimal page", lambda: client.get(reverse("benchmark_minimal"))),
        Page("evening page (50 deals)", lambda: client.get(evening_url)),
        Page("live poll, nothing changed", live_unchanged, 304),
        Page("deal preview", lambda: client.post(preview_url, form, HTTP_HX_REQUEST="true")),
        Page("season standings", lambda: client.get(season_url, {"sort": "total"})),
        Page("player page", lambda: client.get(player_url, {"season": built.season_id})),
        Page(
            "counter update",
            lambda: client.get(counter_url, COUNTER_QUERY, HTTP_HX_REQUEST="true"),
        ),
        Page("deal save", save, 302, SAVE_TARGET),
    ]


def _served_by_wsgi(client: Client, url: str, query: dict[str, object]) -> HttpResponse:
    """A GET as gunicorn hands it to ``scorekeeper.wsgi``'s application (the live poll's
    "nothing changed" is answered in front of Django's handler), with the client's cookies;
    the status and body as a response."""
    from scorekeeper.wsgi import application

    cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    environ = RequestFactory().get(url, query, HTTP_COOKIE=cookie, HTTP_HX_REQUEST="true").environ
    statuses: list[str] = []
    answer = application(environ, lambda status, _headers: statuses.append(status))
    try:
        body = b"".join(answer)
    finally:
        getattr(answer, "close", lambda: None)()  # Django's end of request, when it answered
    return HttpResponse(body, status=int(statuses[0].split()[0]))


def _time(page: Page, repeat: int) -> Timing:
    """Warmed up (templates compiled, caches filled), then counted, then timed."""
    for _ in range(2):
        page.request()
    queries = _queries(page.request)
    return Timing(page.name, _median_ms(page.request, repeat, page.expect), queries, page.limit)


def _cache_timings(client: Client, season_url: str, repeat: int) -> tuple[Timing, Timing]:
    """The season's standings after a restart (with a target), and with every cache empty."""

    def after_restart() -> HttpResponse:
        """A new process (a restart, another worker or machine): its memory is empty, the
        shared cache (Redis in production) and the stored figures are there."""
        shared_cache.forget_local()
        return client.get(season_url, {"sort": "total"})

    def nothing_cached() -> HttpResponse:
        """Every cache empty (a restart without Redis): the stored figures alone."""
        cache.clear()
        shared_cache.forget_local()
        return client.get(season_url, {"sort": "total"})

    nothing_cached()  # the deal saves before changed an evening: store its figures once
    after_restart()
    restarted = Timing(
        "season, first view after a restart",
        _median_ms(after_restart, repeat, 200),
        _queries(after_restart),
    )
    cold = Timing(
        "season, every cache empty", _median_ms(nothing_cached, repeat, 200), 0, limit=0.0
    )
    cold.queries = _queries(nothing_cached)
    shared_cache.forget_local()
    return restarted, cold


def _after_save(
    client: Client, built: Built, save: Request, season_url: str, repeat: int
) -> Timing:
    """The standings when a deal was just saved (that evening is added up again)."""
    trim_tonight(built)
    samples, queries = [], 0
    for number in range(repeat):
        save()
        started = time.perf_counter()
        if number == 0:  # counted once: logging the queries costs time of its own
            with CaptureQueriesContext(connections["default"]) as captured:
                response = client.get(season_url, {"sort": "total"})
            queries = len(captured.captured_queries)
        else:
            response = client.get(season_url, {"sort": "total"})
        samples.append((time.perf_counter() - started) * 1000)
        if response.status_code != 200:
            raise CommandError(f"status {response.status_code}, expected 200")
    return Timing("season standings after a save", statistics.median(samples), queries)


def _median_ms(request: Request, repeat: int, expect: int) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = request()
        samples.append((time.perf_counter() - started) * 1000)
        if response.status_code != expect:
            raise CommandError(f"status {response.status_code}, expected {expect}")
    return statistics.median(samples)


def _queries(request: Request) -> int:
    with CaptureQueriesContext(connections["default"]) as captured:
        request()
    return len(captured.captured_queries)
