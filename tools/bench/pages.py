"""The pages ``manage.py benchmark`` times, in-process, for a signed-in member.

Each page is requested through the whole middleware with django.test.Client: twice to warm
up, once to count its SQL queries, then ``repeat`` times for the median. Then the season's
standings three more ways: after a restart (local memory empty), with every cache empty, and
just after a deal was saved.

Each row is timed in turns with the minimal page (``in_turns``), and its "× minimal" is
against the minimal page of its own turns: this machine has slower and faster spells of
several seconds (the minimal page alone moves from 2.5 to 4.2 ms within a run), and a row
timed in one spell against a minimal page timed in another measured the spell, not the page.
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
from scorekeeper.models import Evening
from tools.bench.synthetic_club import Built, deal_form, trim_tonight

TARGET = 5.0  # every page within 5× the minimal page
TURNS = 3  # each row's requests in three turns, each after a turn of the minimal page
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
    minimal_ms: float = 0.0  # the minimal page in this row's turns (0: timed alone)


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
        ROOT_URLCONF="tools.bench.urls",
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
        # Sessions in the database: the cache above is this process's own.
        SESSION_ENGINE="django.contrib.sessions.backends.db",
    )


def measure(built: Built, repeat: int) -> tuple[Timing, Timing, list[Timing], list[Timing]]:
    """The bare view, the minimal page, the pages with a target, and those for information."""
    client = Client()
    client.force_login(User.objects.get(pk=built.user_id))
    season_url = reverse("season", args=[built.club_id, built.season_id])
    pages = _pages(client, built, season_url)
    bare, minimal = (_time(page, repeat) for page in pages[:2])
    timings = [_time(page, repeat, minimal=pages[1].request) for page in pages[2:]]
    after_restart, cold = _cache_timings(client, season_url, repeat, pages[1].request)
    timings.insert(-1, after_restart)
    save = pages[-1].request
    after_save = _after_save(client, built, save, season_url, repeat, pages[1].request)
    return bare, minimal, [*timings, after_save], [cold]


def minimal_page(client: Client) -> Request:
    """The minimal page, the reference of every row."""
    return lambda: client.get(reverse("benchmark_minimal"))


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
        Page("minimal page", minimal_page(client)),
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


def _time(page: Page, repeat: int, *, minimal: Request | None = None) -> Timing:
    """Warmed up (templates compiled, caches filled), then counted, then timed: alone, or in
    turns with the ``minimal`` page."""
    for _ in range(2):
        page.request()
    queries = _queries(page.request)
    if minimal is None:
        return Timing(page.name, _median_ms(page.request, repeat, page.expect), queries, page.limit)
    median, minimal_ms = in_turns(_sample(page.request, page.expect), minimal, repeat)
    return Timing(page.name, median, queries, page.limit, minimal_ms=minimal_ms)


def in_turns(sample: Callable[[], float], minimal: Request, repeat: int) -> tuple[float, float]:
    """(the median of ``repeat`` samples, the minimal page's median in the same turns).

    In each of ``TURNS`` turns the minimal page is requested twice to warm up again, timed a
    third of ``repeat`` times, then the row is sampled as many times: both are timed in the
    same spell of the machine. ``sample`` does one request (and what comes before it, such as
    a deal saved) and gives the milliseconds of the request alone.
    """
    per_turn = -(-repeat // TURNS)
    samples: list[float] = []
    minimal_samples: list[float] = []
    while len(samples) < repeat:
        minimal()
        minimal()
        minimal_samples.extend(_sample(minimal, 200)() for _ in range(per_turn))
        samples.extend(sample() for _ in range(min(per_turn, repeat - len(samples))))
    return statistics.median(samples), statistics.median(minimal_samples)


def _sample(request: Request, expect: int) -> Callable[[], float]:
    """One request timed, in milliseconds; its status checked."""

    def sample() -> float:
        started = time.perf_counter()
        response = request()
        elapsed = (time.perf_counter() - started) * 1000
        if response.status_code != expect:
            raise CommandError(f"status {response.status_code}, expected {expect}")
        return elapsed

    return sample


def _cache_timings(
    client: Client, season_url: str, repeat: int, minimal: Request
) -> tuple[Timing, Timing]:
    """The season's standings after a restart (with a target), and with every cache empty."""

    def after_restart() -> HttpResponse:
        """A new process (a restart, another worker or machine): no process keeps a copy of
        anything, so it reads as any other view: the shared cache (Redis in production) and
        the stored figures are there."""
        return client.get(season_url, {"sort": "total"})

    def nothing_cached() -> HttpResponse:
        """Every cache empty (a restart without Redis): the stored figures alone."""
        cache.clear()
        return client.get(season_url, {"sort": "total"})

    nothing_cached()  # the deal saves before changed an evening: store its figures once
    after_restart()
    median, minimal_ms = in_turns(_sample(after_restart, 200), minimal, repeat)
    restarted = Timing(
        "season, first view after a restart",
        median,
        _queries(after_restart),
        minimal_ms=minimal_ms,
    )
    median, minimal_ms = in_turns(_sample(nothing_cached, 200), minimal, repeat)
    cold = Timing("season, every cache empty", median, 0, limit=0.0, minimal_ms=minimal_ms)
    cold.queries = _queries(nothing_cached)
    return restarted, cold


def _after_save(
    client: Client, built: Built, save: Request, season_url: str, repeat: int, minimal: Request
) -> Timing:
    """The standings when a deal was just saved (that evening is added up again)."""
    trim_tonight(built)
    return after_save_timing(
        "season standings after a save",
        save,
        lambda: client.get(season_url, {"sort": "total"}),
        minimal,
        repeat,
    )


def after_save_timing(
    name: str, save: Callable[[], object], request: Request, minimal: Request, repeat: int
) -> Timing:
    """A page requested just after each deal saved: its queries counted once (logging them
    costs time of its own, so that request is not timed), then timed in turns with the
    minimal page, each sample after a save of its own."""
    save()
    queries = _queries(request)
    timed = _sample(request, 200)

    def sample() -> float:
        save()
        return timed()

    median, minimal_ms = in_turns(sample, minimal, repeat)
    return Timing(name, median, queries, minimal_ms=minimal_ms)


def _median_ms(request: Request, repeat: int, expect: int) -> float:
    sample = _sample(request, expect)
    return statistics.median(sample() for _ in range(repeat))


def _queries(request: Request) -> int:
    with CaptureQueriesContext(connections["default"]) as captured:
        request()
    return len(captured.captured_queries)
