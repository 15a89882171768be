"""Imports: deal sheets, season files and CSV as new, closed evenings, all or nothing:
checked and scored first (``scoring.import_plan``), then one ``bulk_create`` per table. A
game's content digest notices the same game imported twice.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction
from django.db.models import Prefetch
from django.utils import timezone

from accounts.models import User
from scorekeeper.models import Club, Deal, DealScore, Evening, Game, Player, Seat, stored_inputs
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.import_plan import (
    GamePlan,
    SheetEntry,
    content_digest,
    dated_digest,
    evening_keys,
    in_evening,
    plan_entries,
    rules_for,
)
from scorekeeper.scoring.inputs import clean_name, name_key
from scorekeeper.scoring.sheet import Sheet
from scorekeeper.scoring.sheet_write import map_players
from scorekeeper.scoring.tarot import line_totals
from scorekeeper.services.deals import set_inputs
from scorekeeper.services.figures import refresh_figures
from scorekeeper.services.seasons import season_ensure_for

BATCH = 2000


class DuplicateGame(ScoringError):
    """A game already imported into this club (``evening`` is where it lives)."""

    evening: Evening | None = None


class PlayerBook:
    """The club's players by name key; new names are created once, in bulk, on ``save``."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.known = {name_key(p.name): p for p in Player.objects.filter(club=club)}
        self.new: dict[str, Player] = {}

    def get(self, name: str) -> Player:
        key = name_key(name)
        player = self.known.get(key) or self.new.get(key)
        if player is None:
            player = self.new[key] = Player(club=self.club, name=clean_name(name))
        return player

    def roster(self, names: Sequence[str]) -> list[Player]:
        """The players of a game, refusing two names of one player ("Zoé" and "ZOÉ")."""
        players: list[Player] = []
        for name in names:
            clean_name(name)
            player = self.get(name)
            if any(p is player for p in players):
                other = names[[id(p) for p in players].index(id(player))]
                raise ScoringError.coded(
                    "players",
                    "same_player",
                    "%(first)s and %(second)s are the same player",
                    first=other,
                    second=name,
                )
            players.append(player)
        return players

    def save(self) -> None:
        if self.new:
            Player.objects.bulk_create(self.new.values())
            self.known.update(self.new)
            self.new = {}


def duplicate_of(club: Club, digest: str, day: dt.date) -> Evening | None:
    """The club's evening holding this game (its dated digest), if any.

    Games imported before keep their digest; games entered at the table are compared by
    computing theirs, for the evenings of that date only (a few queries).
    """
    game = (
        Game.objects.filter(evening__club=club, import_digest=digest)
        .select_related("evening")
        .first()
    )
    if game is not None:
        return game.evening
    games = (
        Game.objects.filter(evening__club=club, evening__date=day, import_digest="")
        .select_related("evening")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch("deals", queryset=Deal.objects.order_by("number").prefetch_related("scores")),
        )
    )
    for game in games:
        names = {seat.player_id: seat.player.name for seat in game.seats.all()}
        try:
            deals = [
                stored_inputs(deal, game.kind, key=names.__getitem__) for deal in game.deals.all()
            ]
        except (KeyError, ValueError):  # a player no longer seated: not an imported shape
            continue
        target = game.target if game.kind == Game.Kind.ESCOPETTE else None
        sheet = Sheet(
            game=game.kind, players=tuple(names.values()), target=target, deals=tuple(deals)
        )
        try:
            if dated_digest(content_digest(sheet), day) == digest:
                return game.evening
        except ScoringError:
            continue
    return None


def store_game(
    *,
    evening: Evening,
    number: int,
    plan: GamePlan,
    players: dict[str, Player],
    created_by: User | None,
    created_at: Sequence[dt.datetime | None] = (),
) -> tuple[Game, list[Deal]]:
    """Write one planned game and its deals: a few bulk inserts."""
    now = timezone.now()
    moments = list(created_at) + [None] * (len(plan.deals) - len(created_at))
    ids = {name: player.pk for name, player in players.items()}
    game = Game.objects.create(
        evening=evening,
        number=number,
        kind=plan.kind,
        target=plan.target if plan.kind == Game.Kind.ESCOPETTE else None,
        five_mode=plan.five_mode,
        first_dealer_id=ids[plan.first_dealer],
        import_digest=plan.digest,
    )
    Seat.objects.bulk_create(
        Seat(game=game, player_id=ids[name], position=position, present=present)
        for position, (name, present) in enumerate(plan.seats, start=1)
    )
    rows = []
    for number, (deal_plan, moment) in enumerate(zip(plan.deals, moments, strict=True), start=1):
        row = Deal(game=game, number=number, dealer_id=ids[deal_plan.dealer], created_by=created_by)
        set_inputs(row, map_players(deal_plan.inputs, ids.__getitem__))
        row.created_at = row.updated_at = moment or now
        rows.append(row)
    deals = Deal.objects.bulk_create(rows, batch_size=BATCH)
    if any(deal.pk is None for deal in deals):  # a database that does not return ids
        by_number = dict(game.deals.values_list("number", "pk"))
        for deal in deals:
            deal.pk = by_number[deal.number]
    scores = []
    for deal, deal_plan in zip(deals, plan.deals, strict=True):
        for name in dict.fromkeys([*deal_plan.present, *deal_plan.scores]):
            seated = name in deal_plan.scores
            scores.append((deal.pk, ids[name], seated, deal_plan.scores.get(name, 0)))
    totals = line_totals([(deal, player, score) for deal, player, _seated, score in scores])
    _insert_scores([(*row, total) for row, total in zip(scores, totals, strict=True)])
    return game, deals


def _insert_scores(rows: list[tuple[int, int, bool, int, int]]) -> None:
    """DealScore rows as plain tuples: tens of thousands without building model instances."""
    table = connection.ops.quote_name(DealScore._meta.db_table)
    sql = (
        f"INSERT INTO {table} (deal_id, player_id, seated, score, total) "
        "VALUES (%s, %s, %s, %s, %s)"
    )
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH * 5):
            cursor.executemany(sql, rows[start : start + BATCH * 5])


def evenings_import(
    *,
    club: Club,
    entries: Sequence[SheetEntry],
    created_by: User | None,
    date: dt.date | None = None,
    place: str = "",
    skip_existing: bool = False,
) -> list[Evening]:
    """Every entry as a game of a new, closed evening: all or none (a ScoringError). Players
    matched by name or created; a game already imported raises ``DuplicateGame`` unless
    ``skip_existing``.
    """
    plans = plan_entries(entries)
    with transaction.atomic():
        book = PlayerBook(club)
        rosters = []
        for number, entry in enumerate(entries, start=1):
            try:
                rosters.append(book.roster(entry.sheet.players))
            except ScoringError as error:
                raise in_evening(error, number, len(entries)) from None
        book.save()
        evenings: list[Evening] = []
        by_key: dict[Any, Evening] = {}
        now = timezone.now()
        keys, key_rules = evening_keys(entries, plans)
        for number, (entry, plan, roster) in enumerate(
            zip(entries, plans, rosters, strict=True), start=1
        ):
            day = entry.date or date or timezone.localdate()
            plan.digest = dated_digest(plan.digest, day)
            existing = duplicate_of(club, plan.digest, day)
            if existing is not None:
                if skip_existing:
                    continue
                error = DuplicateGame.coded(
                    "sheet",
                    "duplicate",
                    "this game is already here: the evening of %(date)s",
                    date=existing.date.isoformat(),
                )
                error.evening = existing
                raise in_evening(error, number, len(entries))
            key = keys[number - 1]  # one evening, one set of rules (import_plan.evening_keys)
            evening = by_key.get(key) if key is not None else None
            if evening is None:
                evening = Evening.objects.create(
                    club=club,
                    date=day,
                    place=(entry.place if entry.date else place).strip(),
                    created_by=created_by,
                    closed_at=now,
                    rules=rules_for(key, plan, key_rules).to_data(),
                )
                season_ensure_for(club=club, date=evening.date)
                evenings.append(evening)
                if key is not None:
                    by_key[key] = evening
            game_number = evening.games.count() + 1
            store_game(
                evening=evening,
                number=game_number,
                plan=plan,
                players=dict(zip(entry.sheet.players, roster, strict=True)),
                created_by=created_by,
            )
        refresh_figures(evening.pk for evening in evenings)  # the read model, in the import's
    return evenings
