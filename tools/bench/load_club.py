"""The club ``manage.py loadtest`` plays in: the benchmark's synthetic club, and the tables
playing, each an evening in progress with its phones signed in.

Written through the services (an evening started, ten deals recorded), as the app would; the
phones' sessions are stored in the database with the servers' secret key, so that gunicorn
takes them as signed in.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db.models import Max
from django.test.utils import override_settings
from django.utils import timezone

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import Club, Deal, Evening, Player
from scorekeeper.scoring.tarot import TarotDeal
from tools.bench.synthetic_club import Built, build

PHONES = 5  # phones following each table
DEALS_PLAYED = 10  # deals already recorded at each table
DEAL_EVERY = 120.0  # seconds between two deals at a table
DATES = ("night", "spread")  # the tables' dates: one club night, or one date each
SEATINGS = ("own", "club")  # who sits at the tables: players of their own, or the club's


@dataclass
class Table:
    evening_id: int
    game_id: int
    present: list[int]
    cookies: list[str]  # one session per phone; the first is the scorer's
    version: int = 0  # the evening's version once built: what the phones start from
    club_id: int = 0  # the club and the season whose pages the table's phones look at
    season_id: int = 0


def build_tables(
    deals: int, tables: int, secret_key: str, *, dates: str = "night", seating: str = "club"
) -> tuple[Built, list[Table]]:
    """The benchmark's club and season, and ``tables`` evenings in progress (10 deals each).

    ``dates``: ``night``, a club night: every table on the same date, the day after the
    club's last evening (each save changes one of tonight's evenings); ``spread``, each table
    on a date of its own through the season (each save changes a settled evening: the
    season's sums are added up again around it, the worst case of the reads).

    ``seating``: ``club``, the club's 12 players in turn at every table (the default, as in
    every earlier load: at 300 tables each of them sits at a hundred tables at once, so a
    deal saved at one table comes before the same players' deals at the later tables, and
    the ratings must be drawn again from tonight's first deal); ``own``, each table its own
    players, new to the club, as on a real night (nobody sits at two tables at once: a
    saved deal is put at its place in the ratings; 1,350 players on the pages)."""
    if dates not in DATES:
        raise ValueError(f"dates: {dates!r}, not one of {DATES}")
    if seating not in SEATINGS:
        raise ValueError(f"seating: {seating!r}, not one of {SEATINGS}")
    built = build(deals)
    seats = seat_tables(built, tables, secret_key, dates=dates, seating=seating)
    played_in_the_last_minutes([seat.game_id for seat in seats])
    return built, seats


def seat_tables(
    built: Built, tables: int, secret_key: str, *, dates: str = "night", seating: str = "own"
) -> list[Table]:
    """``tables`` evenings of the club in progress, 10 deals each, and their phones
    (``build_tables`` says what ``dates`` and ``seating`` choose)."""
    last = Evening.objects.filter(club_id=built.club_id).aggregate(last=Max("date"))["last"]
    night = min(last + dt.timedelta(days=1), dt.date(last.year, 12, 31))
    first_day = dt.date(dt.date.today().year, 1, 1)  # the synthetic club's first evening
    user = User.objects.get(pk=built.user_id)
    players = list(Player.objects.filter(club_id=built.club_id).order_by("pk"))
    seats: list[Table] = []
    with override_settings(SECRET_KEY=secret_key):  # the sessions are checked by the servers
        session = _session_maker(user)
        for index in range(tables):
            size = 5 if index % 2 else 4
            if seating == "own":
                table = Player.objects.bulk_create(
                    Player(club_id=built.club_id, name=f"Table {index + 1}, seat {seat}")
                    for seat in range(1, size + 1)
                )
            else:
                table = [players[(index + k) % len(players)] for k in range(size)]
            club = user.memberships.get().club
            date = night if dates == "night" else first_day + dt.timedelta(days=index % 365)
            playing = _table_playing(club, user, table, date, session)
            playing.club_id, playing.season_id = built.club_id, built.season_id
            seats.append(playing)
    return seats


def played_in_the_last_minutes(games: list[int]) -> None:
    """The tables' deals saved one every ``DEAL_EVERY`` seconds up to now, as at a real table
    (built in a few seconds, they would all be "changed lately" for the phones' ``since``)."""
    now = timezone.now()
    for number in range(1, DEALS_PLAYED + 1):
        saved = now - dt.timedelta(seconds=DEAL_EVERY * (DEALS_PLAYED + 1 - number))
        Deal.objects.filter(game_id__in=games, number=number).update(
            created_at=saved, updated_at=saved
        )


def _session_maker(user: User) -> Callable[[], str]:
    """A function that stores a new session of ``user`` and gives its key."""
    auth_hash = user.get_session_auth_hash()

    def session() -> str:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = auth_hash
        store.create()
        return str(store.session_key)

    return session


def _table_playing(
    club: Club, user: User, table: list[Player], date: dt.date, session: Callable[[], str]
) -> Table:
    """An evening started for ``table`` with its first deals recorded, and its phones."""
    evening = services.evening_start(
        club=club,
        players=table,
        first_dealer=table[0],
        created_by=user,
        date=date,
    )
    game = evening.games.get()
    ids = tuple(player.pk for player in table)
    size = len(table)
    for number in range(DEALS_PLAYED):
        services.deal_record(
            game=game,
            inputs=TarotDeal(
                seated=ids,
                taker=ids[number % size],
                partner=ids[(number + 1) % size] if size == 5 else None,
                contract="garde",
                bouts=2,
                points=Decimal(45 + number % 7),
            ),
            dealer=table[number % size],
            created_by=user,
        )
    evening.refresh_from_db()
    cookies = [session() for _ in range(PHONES)]
    return Table(evening.pk, game.pk, list(ids), cookies, evening.version)
