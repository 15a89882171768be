"""``manage.py loadtest --scenario tournament``: a tournament's round ending.

``--tables`` tables of 4 (50: 200 players) seated for a round by the services, each with all
its deals but the last one entered; during the load every table's phone saves the round's
last deal (all of them within ``LAST_DEALS_WITHIN`` seconds, wrk going round the tables),
reloads its table page and polls it, while ``RANKING_PHONES`` phones follow the public
ranking (its live part, as htmx asks for it) and the organiser follows the tournament's page;
the login page alongside as the yardstick. The tables' phones are not signed in: their
sessions hold the table's grant, as a table card's QR code gives it.
"""

from __future__ import annotations

import datetime as dt
import urllib.request
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.sessions.backends.db import SessionStore
from django.test.utils import override_settings

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import Club, Player, TournamentTable
from scorekeeper.reads.sheet_changes import as_of_now
from scorekeeper.scoring.tarot import TarotDeal
from scorekeeper.screens.access import TABLE_GRANTS
from tools.bench.load_club import Table, _session_maker
from tools.bench.load_scenarios import (
    CSRF_SECRET,
    GZIP,
    POLL_EVERY,
    Item,
    Kind,
    cookie,
)
from tools.bench.synthetic_club import build, deal_form

DEALS_PER_ROUND = 6  # the round's deals; all but the last are entered before the load
LAST_DEALS_WITHIN = 60.0  # seconds in which every table saves its last deal
RANKING_PHONES = 50  # phones following the public ranking
ORGANISER_EVERY = 20.0  # seconds between two polls of the organiser's page (its live pace)


@dataclass
class TournamentLoad:
    tournament_id: int
    public_token: str
    organiser: str  # the organiser's session
    tables: list[Table]  # each table's phone: cookies[0], a session with the table's grant
    ranking_phones: int = RANKING_PHONES


def build_tournament(
    deals: int,
    tables: int,
    secret_key: str,
    *,
    deals_per_round: int = DEALS_PER_ROUND,
    played: int = DEALS_PER_ROUND - 1,
    number: int = 0,
    ranking_phones: int = RANKING_PHONES,
) -> TournamentLoad:
    """The benchmark's club (``number``: one of a night's), ``4 * tables`` players
    registered, round 1 of ``deals_per_round`` deals seated and ``played`` of them entered at
    each table (by default all but the last); ``ranking_phones`` phones follow the ranking."""
    built = build(deals, number=number)
    user = User.objects.get(pk=built.user_id)
    club = Club.objects.get(pk=built.club_id)
    Player.objects.bulk_create(
        Player(club=club, name=f"Entrant {index:03d}") for index in range(1, 4 * tables + 1)
    )
    players = list(Player.objects.filter(club=club, name__startswith="Entrant ").order_by("pk"))
    tournament = services.tournament_create(
        club=club,
        created_by=user,
        name="Load test cup",
        date=dt.date(dt.date.today().year, 6, 1),
        rounds=3,
        deals_per_round=deals_per_round,
    )
    for player in players:
        services.tournament_register(tournament=tournament, player=player)
    first = services.round_start(tournament=tournament, created_by=user)
    # The sessions are checked by the servers; the round's deals are dated before the club's
    # last evening, which the servers let the load test change at will (local_servers).
    with override_settings(SECRET_KEY=secret_key, OLD_EVENING_CHANGES_PER_HOUR=0):
        organiser = _session_maker(user)()
        seated = [
            _table_played(table, user, played)
            for table in first.tables.select_related("game", "evening").order_by("number")
        ]
    return TournamentLoad(tournament.pk, tournament.public_token, organiser, seated, ranking_phones)


def _table_played(table: TournamentTable, user: User, played: int) -> Table:
    """``played`` deals of the round entered at ``table``, and its phone's session."""
    ids = tuple(table.game.seats.order_by("position").values_list("player_id", flat=True))
    size = len(ids)
    for number in range(played):
        services.deal_record(
            game=table.game,
            inputs=TarotDeal(
                seated=ids,
                taker=ids[number % size],
                partner=ids[(number + 1) % size] if size == 5 else None,
                contract="garde",
                bouts=2,
                points=Decimal(45 + number % 7),
            ),
            created_by=user,
        )
    store = SessionStore()
    store[TABLE_GRANTS] = {str(table.evening_id): table.token}
    store.create()
    table.evening.refresh_from_db()
    return Table(
        table.evening_id, table.game_id, list(ids), [str(store.session_key)], table.evening.version
    )


def tournament_kinds(load: TournamentLoad, *, save_every: float = LAST_DEALS_WITHIN) -> list[Kind]:
    """Every kind of request of the round, with its pace: a deal saved at each table every
    ``save_every`` seconds (by default: the round's last deals, all within a minute)."""
    tables = len(load.tables)
    save_rate = tables / save_every
    drawn = as_of_now()
    phone = [t.cookies[0] for t in load.tables]
    return [
        Kind(
            "ranking poll",
            [_ranking(load)],
            load.ranking_phones / POLL_EVERY,
            load.ranking_phones,
            (200,),
        ),
        Kind(
            "live poll",
            [
                {
                    "path": f"/evenings/{t.evening_id}/live/",
                    "version": t.version,
                    "since": drawn,  # the page's moment, as live.js sends it
                    "headers": {"Cookie": cookie(c), "HX-Request": "true"},
                }
                for t, c in zip(load.tables, phone, strict=True)
            ],
            tables / POLL_EVERY,
            tables,
            (200, 304),
        ),
        Kind(
            "last deal save",
            [_save(t, c) for t, c in zip(load.tables, phone, strict=True)],
            save_rate,
            max(1, tables // 20),
            (302,),
            method="POST",
        ),
        Kind(
            "table page",
            [
                {"path": f"/evenings/{t.evening_id}/", "headers": {"Cookie": cookie(c), **GZIP}}
                for t, c in zip(load.tables, phone, strict=True)
            ],
            save_rate,
            max(1, tables // 20),
            (200,),
        ),
        Kind(
            "organiser page",
            [
                {
                    "path": f"/tournaments/{load.tournament_id}/",
                    "headers": {"Cookie": cookie(load.organiser), "HX-Request": "true", **GZIP},
                }
            ],
            1 / ORGANISER_EVERY,
            1,
            (200,),
        ),
        Kind("login page", [{"path": "/login/", "headers": GZIP}], 2.0, 1, (200,)),
    ]


def _ranking(load: TournamentLoad) -> Item:
    return {"path": f"/ranking/{load.public_token}/", "headers": {"HX-Request": "true", **GZIP}}


def _save(table: Table, session: str) -> Item:
    return {
        "path": f"/evenings/{table.evening_id}/games/{table.game_id}/deals/",
        "body": "&".join(f"{k}={v}" for k, v in deal_form(table.present).items()),
        "headers": {
            "Cookie": cookie(session),
            "X-CSRFToken": CSRF_SECRET,
            "Content-Type": "application/x-www-form-urlencoded",
        },
    }


def tournament_warm_up(origin: str, load: TournamentLoad) -> None:
    """Each table's sheet rendered once, the ranking once: what a running server has."""
    for table in load.tables:
        request = urllib.request.Request(
            f"{origin}/evenings/{table.evening_id}/live/?version=0",
            headers={"Cookie": cookie(table.cookies[0]), "HX-Request": "true"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()
    ranking = _ranking(load)
    request = urllib.request.Request(f"{origin}{ranking['path']}", headers=ranking["headers"])
    with urllib.request.urlopen(request, timeout=30) as answer:
        answer.read()
