"""``manage.py loadtest --scenario tournament``: a club's tournaments ending their round at once.

One club (``--deals`` deals of history) runs a tournament of free deals of ``--tables`` tables
of 4 (50: 200 players) and, with ``DUPLICATE``, as many tables of duplicate deals (in
tournaments of at most ``DUPLICATE_TABLES``: the movement seats 12 to 60 players), each seated
for round 1 by the services with ``PLAYED`` deals entered at each table. During the load each
table's phone does what the evening page does: it polls its table every 4 s and saves a deal
every ``SAVE_EVERY`` seconds (through htmx, the answer in place; free deals past the plan, as
the organiser allowed; a duplicate table's next case), and the table's page is loaded whole
once per deal; ``RANKING_PHONES`` phones follow each kind's rankings and the organiser each
tournament's page, at their pages' pace; the login page alongside as the yardstick. One more
table of each kind is the probe's (``ranking_probe``): how soon the ranking shows its saves.
The tables' phones are not signed in: their sessions hold the table's grant, as a table
card's QR code gives it.
"""

from __future__ import annotations

import dataclasses
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
from scorekeeper.screens.tournaments.views import LIVE_SECONDS
from tools.bench.load_club import Table, _session_maker
from tools.bench.load_scenarios import GZIP, LIVE, POLL_EVERY, Item, Kind, _saves, cookie
from tools.bench.ranking_probe import Probe
from tools.bench.synthetic_club import build

DEALS_PER_ROUND = 6  # the round's planned deals
PLAYED = DEALS_PER_ROUND - 2  # entered at each table before the load
SAVE_EVERY = 60.0  # seconds between two deals at a table: a round's last deals, in a minute
RANKING_PHONES = 50  # phones following each kind's public rankings
#: Duplicate tournaments beside the free one (the app has them since issue 39).
DUPLICATE = True
DUPLICATE_TABLES = 15  # a duplicate tournament's most tables: 60 players
DUPLICATE_DEALS = 8  # a duplicate round's cases: 4 left to save at each table, 8 at the probe's
PAST_PLAN = 10_000  # deals the organiser allows past the plan: the load never runs short


@dataclass
class TournamentLoad:
    tournament_id: int
    public_token: str
    organiser: str  # the organiser's session
    tables: list[Table]  # each table's phone: cookies[0], a session with the table's grant
    ranking_phones: int = RANKING_PHONES
    name: str = "free"  # what its requests are called by: free, duplicate
    probe: Probe | None = None  # the table the ranking probe saves at
    cases: dict[int, list[int]] = dataclasses.field(default_factory=dict)  # a duplicate
    # table's cases left to save, by its evening


def build_tournament(
    deals: int,
    tables: int,
    secret_key: str,
    *,
    deals_per_round: int = DEALS_PER_ROUND,
    played: int = PLAYED,
    number: int = 0,
    ranking_phones: int = RANKING_PHONES,
) -> TournamentLoad:
    """The benchmark's club (``number``: one of a night's) with ``deals`` deals, and a
    tournament of free deals in it (``tournament_in``)."""
    built = build(deals, number=number)
    club = Club.objects.get(pk=built.club_id)
    user = User.objects.get(pk=built.user_id)
    return tournament_in(
        club, user, tables, secret_key, deals_per_round=deals_per_round, played=played,
        ranking_phones=ranking_phones,
    )  # fmt: skip


def build_tournaments(deals: int, tables: int, secret_key: str) -> list[TournamentLoad]:
    """The scenario's club and its tournaments: free deals, then duplicate (``DUPLICATE``),
    ``tables`` tables of each kind and one more for the probe."""
    built = build(deals)
    club = Club.objects.get(pk=built.club_id)
    user = User.objects.get(pk=built.user_id)
    loads = [tournament_in(club, user, tables, secret_key, probe=True)]
    count = -(-(tables + 1) // DUPLICATE_TABLES) if DUPLICATE and tables >= 2 else 0
    for index in range(count):  # the probe's table in the first
        size = (tables + 1) // count + (index < (tables + 1) % count)
        phones = max(1, RANKING_PHONES * size // (tables + 1))
        duplicate = {"kind": "duplicate", "deals_per_round": DUPLICATE_DEALS, "probe": index == 0}
        load = tournament_in(club, user, size - (index == 0), secret_key, **duplicate)
        loads.append(dataclasses.replace(load, ranking_phones=phones))
    return loads


def tournament_in(
    club: Club,
    user: User,
    tables: int,
    secret_key: str,
    *,
    kind: str = "free",
    deals_per_round: int = DEALS_PER_ROUND,
    played: int = PLAYED,
    ranking_phones: int = RANKING_PHONES,
    probe: bool = False,
) -> TournamentLoad:
    """A tournament of ``club``'s: ``4 * tables`` players registered (4 more for the
    ``probe``'s table), round 1 of ``deals_per_round`` deals seated and ``played`` of them
    entered at each table; ``ranking_phones`` phones follow the ranking."""
    tournament = services.tournament_create(
        club=club,
        created_by=user,
        name=f"Load test cup ({kind})",
        date=dt.date(dt.date.today().year, 6, 1),
        rounds=3,
        deals_per_round=deals_per_round,
        **({} if kind == "free" else {"kind": kind}),  # f04a89f's (compare_main) has no kinds
    )
    for player in Player.objects.bulk_create(
        Player(club=club, name=f"Cup {tournament.pk} player {index:03d}")
        for index in range(1, 4 * (tables + probe) + 1)
    ):
        services.tournament_register(tournament=tournament, player=player)
    first = services.round_start(tournament=tournament, created_by=user)
    if hasattr(TournamentTable, "extra_deals"):  # not in f04a89f (compare_main)
        first.tables.update(extra_deals=PAST_PLAN)
    cases = {table.evening_id: _cases(table) for table in first.tables.all()}
    # The sessions are checked by the servers; the round's deals are dated before the club's
    # last evening, which the servers let the load test change at will (local_servers).
    with override_settings(SECRET_KEY=secret_key, OLD_EVENING_CHANGES_PER_HOUR=0):
        organiser = _session_maker(user)()
        playing = [
            _table_played(table, user, 0 if probe and number == tables else played, cases)
            for number, table in enumerate(
                first.tables.select_related("game", "evening").order_by("number")
            )
        ]
    load = TournamentLoad(
        tournament.pk, tournament.public_token, organiser, playing, ranking_phones, kind
    )
    if kind == "duplicate":
        load.cases = cases
    if probe:
        table = load.tables.pop()
        names = dict(Player.objects.filter(pk__in=table.present).values_list("pk", "name"))
        ranking = f"/ranking/{tournament.public_token}/"
        save = _saves([table], load.cases)[0]
        load.probe = Probe(kind, ranking, save, names[table.present[1]])
    return load


def _cases(table: TournamentTable) -> list[int]:
    """A duplicate table's cases this round (none for free deals)."""
    if getattr(table.round.tournament, "kind", "free") != "duplicate":
        return []
    # Here, not at the top: an app before duplicate deals (compare_main's f04a89f) runs the
    # night scenario, which imports this module.
    from scorekeeper.services.duplicate import movement_of

    return list(movement_of(table.round.tournament).cases(table.round.number - 1, table.number - 1))


def _table_played(
    table: TournamentTable, user: User, played: int, cases: dict[int, list[int]]
) -> Table:
    """``played`` deals of the round entered at ``table`` (a duplicate table's first cases,
    taken off ``cases``), and its phone's session."""
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
            **({"case_number": cases[table.evening_id].pop(0)} if cases[table.evening_id] else {}),
        )
    store = SessionStore()
    store[TABLE_GRANTS] = {str(table.evening_id): table.token}
    store.create()
    table.evening.refresh_from_db()
    return Table(
        table.evening_id, table.game_id, list(ids), [str(store.session_key)], table.evening.version
    )


def tournament_kinds(
    load: TournamentLoad, *, save_every: float = SAVE_EVERY, live: str = "poll"
) -> list[Kind]:
    """Every kind of request of the round, with its pace: a deal saved at each table every
    ``save_every`` seconds (by default: the round's last deals, all within a minute).
    ``live`` (``load_scenarios.LIVE``): events, the table's phone follows its table through
    an event stream (``tournament_streams``; it saves every deal, so it fetches no rows);
    poll, it polls every 4 s."""
    tables = len(load.tables)
    save_rate = tables / save_every
    drawn = as_of_now()
    phone = [t.cookies[0] for t in load.tables]
    sent = [
        Kind(
            "ranking poll",
            [_ranking(load)],
            load.ranking_phones / LIVE_SECONDS,
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
            "deal save",
            _saves(load.tables, load.cases),
            save_rate,
            max(1, tables // 20),
            (200,),
            "POST",
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
            1 / LIVE_SECONDS,
            1,
            (200,),
        ),
        Kind("login page", [{"path": "/login/", "headers": GZIP}], 2.0, 1, (200,)),
    ]
    if live == "events":
        return [kind for kind in sent if kind.name != "live poll"]
    if live != "poll":
        raise ValueError(f"live: {live!r}, not one of {LIVE}")
    return sent


def tournament_streams(load: TournamentLoad) -> list[tuple[str, str]]:
    """Each table's phone's event stream of its table: its address and the phone's cookie."""
    return [(f"/evenings/{t.evening_id}/events/", cookie(t.cookies[0])) for t in load.tables]


def tournaments_kinds(loads: list[TournamentLoad], *, live: str = "poll") -> list[Kind]:
    """Each kind of tournament's requests, named after it ("free deal save"...): those of
    its tournaments together (a wrk each), then one login page."""
    named: dict[str, Kind] = {}
    for load in loads:
        for kind in tournament_kinds(load, live=live)[:-1]:
            name = f"{load.name} {kind.name}"
            if name not in named:
                named[name] = dataclasses.replace(kind, name=name, items=[*kind.items])
                continue
            joined = named[name]
            joined.items.extend(kind.items)
            joined.rate += kind.rate
            joined.connections += kind.connections
    return [*named.values(), tournament_kinds(loads[0])[-1]]


def _ranking(load: TournamentLoad) -> Item:
    """The ranking's live part, as htmx asks for it: without ``If-None-Match`` (while a
    round ends it changes more often than a phone polls: nearly every poll is new)."""
    return {"path": f"/ranking/{load.public_token}/", "headers": {"HX-Request": "true", **GZIP}}


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


def tournaments_warm_up(origin: str, loads: list[TournamentLoad]) -> None:
    for load in loads:
        tournament_warm_up(origin, load)
