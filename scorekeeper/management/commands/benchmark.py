"""`manage.py benchmark`: time the main pages in-process against a synthetic club.

A throw-away SQLite database (a temporary file) holds a club of 12 players with, by default,
200 evenings of 50 deals (10,000 deals) in one season; the project's own database is never
opened. Each page is requested ``--repeat`` times by a signed-in member through the whole
middleware, with django.test.Client; the table gives the median time, its ratio to the
minimal page (base.html with an empty body) and the SQL queries of one request.
"""

from __future__ import annotations

import datetime as dt
import json
import statistics
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import django.test.signals  # noqa: F401  (resets the template engines with DEBUG)
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections
from django.db.utils import ConnectionHandler
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from scorekeeper.management.bench.imports import SECONDS_TARGET, measure_imports
from scorekeeper.server import shared_cache

DEALS_PER_EVENING = 50
PLAYERS = 12
TARGET = 5.0  # every page within 5× the minimal page
SAVE_TARGET = 10.0  # the deal save within 10×
PLAYER_NAMES = [
    "Anaïs",
    "Bertrand",
    "Chloé",
    "Damien",
    "Élodie",
    "François",
    "Gaëlle",
    "Hugo",
    "Inès",
    "Jérôme",
    "Karima",
    "Léon",
]


@dataclass
class Timing:
    name: str
    median_ms: float
    queries: int
    limit: float = TARGET
    ratio: float = 0.0


@dataclass
class Built:
    user_id: int
    club_id: int
    season_id: int
    player_id: int
    evening_id: int
    game_id: int
    present: list[int]


class Command(BaseCommand):
    help = (
        "Time the evening page, a deal preview and save, the season standings, a player's "
        "page and a counter update against a synthetic club in a throw-away SQLite database."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--deals", type=int, default=10_000, help="deals (default 10000)")
        parser.add_argument("--repeat", type=int, default=30, help="requests per page (30)")
        parser.add_argument("--json", dest="json_path", help="also write the figures here")

    def handle(self, *args: Any, **options: Any) -> None:
        deals, repeat = options["deals"], options["repeat"]
        if deals < DEALS_PER_EVENING:
            raise CommandError(f"--deals: at least {DEALS_PER_EVENING}")
        if repeat < 1:
            raise CommandError("--repeat: at least 1")
        with (
            warnings.catch_warnings(),
            tempfile.TemporaryDirectory(prefix="scorekeeper-benchmark-") as folder,
            throwaway_database(Path(folder) / "benchmark.sqlite3"),
            bench_settings(),
        ):
            warnings.filterwarnings("ignore", message="No directory at")
            self.stderr.write(f"Building {deals} deals…")
            started = time.perf_counter()
            built = build(deals)
            self.stderr.write(f"Built in {time.perf_counter() - started:.1f} s; timing…")
            bare, minimal, pages, info = measure(built, repeat)
            self.stderr.write("Timing the imports…")
            imports = measure_imports(deals, built.club_id, built.user_id)
        for page in [*pages, *info]:
            page.ratio = page.median_ms / minimal.median_ms if minimal.median_ms else 0.0
        self.print_table(deals, repeat, bare, minimal, pages, info)
        for row in imports:
            self.stdout.write(
                f"{row.name:<28} {row.seconds * 1000:>10.0f} {'':>10} {'':>8}  "
                f"< {SECONDS_TARGET:g} s {row.verdict}"
            )
        if options["json_path"]:
            data = {
                "deals": deals,
                "bare_ms": round(bare.median_ms, 3),
                "minimal_ms": round(minimal.median_ms, 3),
                "pages": [
                    {
                        "name": page.name,
                        "median_ms": round(page.median_ms, 3),
                        "ratio": round(page.ratio, 3),
                        "queries": page.queries,
                    }
                    for page in pages
                ],
                "imports": [
                    {"name": row.name, "deals": row.deals, "seconds": round(row.seconds, 3)}
                    for row in imports
                ],
                "info": [
                    {
                        "name": timing.name,
                        "median_ms": round(timing.median_ms, 3),
                        "ratio": round(timing.ratio, 3),
                        "queries": timing.queries,
                    }
                    for timing in info
                ],
            }
            Path(options["json_path"]).write_text(json.dumps(data, indent=2) + "\n")

    def print_table(
        self,
        deals: int,
        repeat: int,
        bare: Timing,
        minimal: Timing,
        pages: list[Timing],
        info: list[Timing],
    ) -> None:
        self.stdout.write(f"{deals} deals, median of {repeat} requests\n")
        self.stdout.write(
            f"{'page':<28} {'median ms':>10} {'× minimal':>10} {'queries':>8}  target"
        )
        rows = [(bare, bare.median_ms / minimal.median_ms if minimal.median_ms else 0.0, "")]
        rows.append((minimal, 1.0, ""))
        for page in pages:
            verdict = "ok" if page.ratio <= page.limit else "MISSED"
            rows.append((page, page.ratio, f"≤ {page.limit:g}× {verdict}"))
        rows.extend((timing, timing.ratio, "(for information)") for timing in info)
        for timing, ratio, target in rows:
            self.stdout.write(
                f"{timing.name:<28} {timing.median_ms:>10.2f} {ratio:>10.2f} "
                f"{timing.queries:>8}  {target}"
            )


# --- The throw-away database -------------------------------------------------------------------


class throwaway_database:
    """Point the "default" connection at a new SQLite file, migrated; put it back after."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.original: Any = None

    def __enter__(self) -> None:
        self.original = connections["default"]  # left as it is: it may be in a transaction
        handler = ConnectionHandler(
            {
                "default": {
                    "ENGINE": "django.db.backends.sqlite3",
                    "NAME": str(self.path),
                    "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
                }
            }
        )
        wrapper = handler["default"]
        if wrapper.settings_dict["NAME"] != str(self.path):  # pragma: no cover
            raise CommandError("the benchmark database is not the temporary file")
        connections["default"] = wrapper
        call_command("migrate", database="default", verbosity=0, interactive=False)

    def __exit__(self, *exc: object) -> None:
        connections["default"].close()
        connections["default"] = self.original


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


# --- The synthetic club ------------------------------------------------------------------------

# Deal shapes by seat index (0 takes, 1 is the called partner with five), scored once each.
SHAPES: list[dict[str, Any]] = [
    {"contract": "garde", "bouts": 2, "points": 49},
    {"contract": "petite", "bouts": 1, "points": 48},
    {
        "contract": "garde",
        "bouts": 3,
        "points": 56,
        "petit_au_bout": "attack",
        "poignees": ("simple",),
    },
    {"passed": True},
    {"contract": "garde_sans", "bouts": 2, "points": 44},
    {"contract": "petite", "bouts": 2, "points": 38, "poignees": ("simple", "double")},
    {"contract": "garde_contre", "bouts": 1, "points": 47, "petit_au_bout": "attack"},
    {"contract": "garde", "bouts": 1, "points": 40.5, "petit_au_bout": "defense"},
]


def _shapes(seated: int) -> list[tuple[dict[str, Any], dict[int, int]]]:
    """Each shape with the scores it gives, by seat index, through the scoring service."""
    from scorekeeper.scoring.tarot import PassedDeal, TarotDeal, score_deal

    seats = tuple(range(seated))
    result = []
    for number, shape in enumerate(SHAPES):
        if shape.get("passed"):
            scores = score_deal(PassedDeal(seated=seats))
        else:
            partner = None
            if seated == 5:
                partner = 0 if number % 4 == 1 else 1  # now and then the taker is alone
            fields = {k: v for k, v in shape.items() if k != "passed"}
            scores = score_deal(TarotDeal(seated=seats, taker=0, partner=partner, **fields))
            shape = {**shape, "partner": partner}
        result.append((shape, scores))
    return result


def build(deal_count: int) -> Built:
    from decimal import Decimal

    from accounts.models import User
    from scorekeeper import services
    from scorekeeper.models import (
        Club,
        Deal,
        DealScore,
        Evening,
        Game,
        Membership,
        Player,
        Seat,
    )

    user = User.objects.create_user("member@example.com")
    club = Club.objects.create(name="Club de benchmark")
    Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
    players = Player.objects.bulk_create(Player(club=club, name=name) for name in PLAYER_NAMES)
    evening_count = max(1, deal_count // DEALS_PER_EVENING)
    first_day = dt.date(dt.date.today().year, 1, 1)
    season = services.season_ensure_for(club=club, date=first_day)
    evenings = Evening.objects.bulk_create(
        Evening(
            club=club,
            date=first_day + dt.timedelta(days=i % 365),
            place="",
            created_by=user,
            closed_at=None if i == evening_count - 1 else dt.datetime(2000, 1, 1, tzinfo=dt.UTC),
        )
        for i in range(evening_count)
    )
    tables = []
    for i in range(evening_count):
        size = 5 if i % 3 else 4
        tables.append([players[(i * 5 + k) % PLAYERS] for k in range(size)])
    games = Game.objects.bulk_create(
        Game(evening=evening, number=1, kind=Game.Kind.TAROT, first_dealer=table[0])
        for evening, table in zip(evenings, tables, strict=True)
    )
    Seat.objects.bulk_create(
        Seat(game=game, player=player, position=position)
        for game, table in zip(games, tables, strict=True)
        for position, player in enumerate(table, start=1)
    )
    shapes = {4: _shapes(4), 5: _shapes(5)}
    deals: list[Deal] = []
    scored: list[dict[int, int]] = []
    for index, (game, table) in enumerate(zip(games, tables, strict=True)):
        count = DEALS_PER_EVENING
        if index == evening_count - 1:
            count = deal_count - DEALS_PER_EVENING * (evening_count - 1)
        size = len(table)
        for number in range(1, count + 1):
            shape, scores = shapes[size][(number + index) % len(SHAPES)]
            turn = number % size  # the taker goes round the table

            def seat(i: int, turn: int = turn, table: list[Player] = table) -> Player:
                return table[(i + turn) % len(table)]

            passed = bool(shape.get("passed"))
            deals.append(
                Deal(
                    game=game,
                    number=number,
                    dealer=table[(number - 1) % size],
                    passed=passed,
                    taker=None if passed else seat(0),
                    contract="" if passed else shape["contract"],
                    bouts=None if passed else shape["bouts"],
                    points=None if passed else Decimal(str(shape["points"])),
                    partner=seat(shape["partner"]) if shape.get("partner") is not None else None,
                    petit_au_bout=shape.get("petit_au_bout", ""),
                    poignees=list(shape.get("poignees", ())),
                    chelem="",
                    created_by=user,
                )
            )
            scored.append({seat(i).pk: score for i, score in scores.items()})
    deals = Deal.objects.bulk_create(deals, batch_size=2000)
    DealScore.objects.bulk_create(
        (
            DealScore(deal=deal, player_id=player_id, seated=True, score=score)
            for deal, scores in zip(deals, scored, strict=True)
            for player_id, score in scores.items()
        ),
        batch_size=5000,
    )
    last_game, last_table = games[-1], tables[-1]
    return Built(
        user_id=user.pk,
        club_id=club.pk,
        season_id=season.pk,
        player_id=players[0].pk,
        evening_id=evenings[-1].pk,
        game_id=last_game.pk,
        present=[player.pk for player in last_table],
    )


# --- Timing ---------------------------------------------------------------------------------


def _median_ms(request: Callable[[], HttpResponse], repeat: int, expect: int) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = request()
        samples.append((time.perf_counter() - started) * 1000)
        if response.status_code != expect:
            raise CommandError(f"status {response.status_code}, expected {expect}")
    return statistics.median(samples)


def _queries(request: Callable[[], HttpResponse]) -> int:
    with CaptureQueriesContext(connections["default"]) as captured:
        request()
    return len(captured.captured_queries)


def measure(built: Built, repeat: int) -> tuple[Timing, Timing, list[Timing], list[Timing]]:
    from accounts.models import User

    client = Client()
    client.force_login(User.objects.get(pk=built.user_id))
    present = built.present
    form = {
        "deal-dealer": present[0],
        "deal-taker": present[1],
        "deal-contract": "garde",
        "deal-bouts": 2,
        "deal-points": "49",
        "deal-points_for": "attack",
        "deal-petit_au_bout": "",
        "deal-chelem": "",
    }
    if len(present) == 5:
        form["deal-partner"] = present[2]
    evening_url = reverse("evening", args=[built.evening_id])
    preview_url = reverse("deal_preview", args=[built.evening_id, built.game_id])
    save_url = reverse("deal_create", args=[built.evening_id, built.game_id])
    season_url = reverse("season", args=[built.club_id, built.season_id])
    player_url = reverse("player", args=[built.club_id, built.player_id])
    counter_url = reverse("counter")
    counter_query = {
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

    from scorekeeper.models import Evening

    live_url = reverse("evening_live", args=[built.evening_id])
    version = Evening.objects.get(pk=built.evening_id).version  # no save before its row

    def live_unchanged() -> HttpResponse:
        return client.get(live_url, {"version": version}, HTTP_HX_REQUEST="true")

    def save() -> HttpResponse:
        return client.post(save_url, {**form, "deal-idempotency_key": uuid.uuid4().hex})

    pages: list[tuple[str, Callable[[], HttpResponse], int, float]] = [
        ("bare view", lambda: client.get(reverse("benchmark_bare")), 200, TARGET),
        ("minimal page", lambda: client.get(reverse("benchmark_minimal")), 200, TARGET),
        ("evening page (50 deals)", lambda: client.get(evening_url), 200, TARGET),
        ("live poll, nothing changed", live_unchanged, 304, TARGET),
        (
            "deal preview",
            lambda: client.post(preview_url, form, HTTP_HX_REQUEST="true"),
            200,
            TARGET,
        ),
        ("season standings", lambda: client.get(season_url, {"sort": "total"}), 200, TARGET),
        ("player page", lambda: client.get(player_url, {"season": built.season_id}), 200, TARGET),
        (
            "counter update",
            lambda: client.get(counter_url, counter_query, HTTP_HX_REQUEST="true"),
            200,
            TARGET,
        ),
        ("deal save", save, 302, SAVE_TARGET),
    ]
    timings = []
    for name, request, expect, limit in pages:
        for _ in range(2):  # warm up: templates compiled, caches filled
            request()
        queries = _queries(request)
        timings.append(Timing(name, _median_ms(request, repeat, expect), queries, limit))

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

    nothing_cached()  # the deal saves above changed an evening: store its figures once
    after_restart()
    timings.insert(
        -1,
        Timing(
            "season, first view after a restart",
            _median_ms(after_restart, repeat, 200),
            _queries(after_restart),
        ),
    )
    cold = Timing(
        "season, every cache empty", _median_ms(nothing_cached, repeat, 200), 0, limit=0.0
    )
    cold.queries = _queries(nothing_cached)
    shared_cache.forget_local()
    # For information: the standings when a deal was just saved (that evening is added up again).
    samples, queries = [], 0
    for number in range(repeat):
        save()
        with CaptureQueriesContext(connections["default"]) as captured:
            started = time.perf_counter()
            response = client.get(season_url, {"sort": "total"})
            samples.append((time.perf_counter() - started) * 1000)
        queries = len(captured.captured_queries) if number == 0 else queries
        if response.status_code != 200:
            raise CommandError(f"status {response.status_code}, expected 200")
    after_save = Timing("season standings after a save", statistics.median(samples), queries)
    return timings[0], timings[1], timings[2:], [cold, after_save]
