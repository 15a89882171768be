"""The synthetic club the benchmark and the load test measure: built fast, in bulk.

12 players, one season, an evening of 50 deals per 50 deals asked (the last one still open),
tables of four and five in turn. Each deal shape is scored once per table size through
``scorekeeper.scoring`` and its scores copied to every deal of that shape: the rows are what
the services would have written, without the time they take.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

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
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal, score_deal

try:
    from scorekeeper.scoring.tarot import line_totals
    from scorekeeper.services.figures import refresh_figures
except ImportError:  # an app from before the read model (compare_main's older main)
    line_totals = None  # its scores keep no running totals

    def refresh_figures(evening_ids: Iterable[int], **_: Any) -> None:
        """Nothing to refresh: that app reads the deals themselves."""


DEALS_PER_EVENING = 50
PLAYERS = 12
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

ScoredShape = tuple[dict[str, Any], dict[int, int]]


@dataclass
class Built:
    """The ids the measures need: the member, the club, its season, the open evening."""

    user_id: int
    club_id: int
    season_id: int
    player_id: int
    evening_id: int
    game_id: int
    present: list[int]
    tonight_deals: int = DEALS_PER_EVENING  # the open evening's deals as built


def trim_tonight(built: Built) -> None:
    """The open evening back to the deals it was built with, the later ones deleted as a
    member would. Each series of "just after a save" then times an evening of 50 to 80 deals
    (a long evening's), not one grown by every series timed before it (to 200 and more)."""
    later = Deal.objects.filter(game_id=built.game_id, number__gt=built.tonight_deals)
    for deal in later.order_by("-number"):
        services.deal_delete(deal=deal)


def deal_form(present: list[int]) -> dict[str, Any]:
    """The deal form's fields for a garde made by the second player present (POST data)."""
    form: dict[str, Any] = {
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
    return form


def build(deal_count: int, *, number: int = 0) -> Built:
    """A club with ``deal_count`` deals, in the current database; ``number`` tells apart the
    clubs of a load test's night (their names, their members' addresses)."""
    user, club, players = _club(number)
    evening_count = max(1, deal_count // DEALS_PER_EVENING)
    first_day = dt.date(dt.date.today().year, 1, 1)
    season = services.season_ensure_for(club=club, date=first_day)
    evenings = _evenings(club, user, evening_count, first_day)
    tables = [_table(players, index) for index in range(evening_count)]
    games = _games(evenings, tables)
    shapes = {4: _shapes(4), 5: _shapes(5)}
    deals: list[Deal] = []
    scored: list[dict[int, int]] = []
    for index, (game, table) in enumerate(zip(games, tables, strict=True)):
        count = DEALS_PER_EVENING
        if index == evening_count - 1:
            count = deal_count - DEALS_PER_EVENING * (evening_count - 1)
        for number in range(1, count + 1):
            shape, scores = shapes[len(table)][(number + index) % len(SHAPES)]
            deal, by_player = _deal(game, table, number, shape, scores, user)
            deals.append(deal)
            scored.append(by_player)
    _store_deals(deals, scored)
    refresh_figures(evening.pk for evening in evenings)  # the read model, as services keep it
    return Built(
        user_id=user.pk,
        club_id=club.pk,
        season_id=season.pk,
        player_id=players[0].pk,
        evening_id=evenings[-1].pk,
        game_id=games[-1].pk,
        present=[player.pk for player in tables[-1]],
        tonight_deals=deal_count - DEALS_PER_EVENING * (evening_count - 1),
    )


def _club(number: int) -> tuple[User, Club, list[Player]]:
    """The member (the club's owner), the club and its players."""
    suffix = f" {number}" if number else ""
    user = User.objects.create_user(f"member{number or ''}@example.com")
    club = Club.objects.create(name=f"Club de benchmark{suffix}")
    Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
    players = Player.objects.bulk_create(Player(club=club, name=name) for name in PLAYER_NAMES)
    return user, club, players


def _evenings(club: Club, user: User, count: int, first_day: dt.date) -> list[Evening]:
    """``count`` evenings round the year, all closed but the last, which is the latest."""
    return Evening.objects.bulk_create(
        Evening(
            club=club,
            # Spread over the year in order, the open one last (several a day past 364): none
            # of them is dated after it, as a live evening is.
            date=first_day + dt.timedelta(days=i * 363 // max(count - 1, 1)),
            place="",
            created_by=user,
            closed_at=None if i == count - 1 else dt.datetime(2000, 1, 1, tzinfo=dt.UTC),
        )
        for i in range(count)
    )


def _table(players: list[Player], index: int) -> list[Player]:
    """The players at the ``index``-th evening: five, or four every third evening."""
    size = 5 if index % 3 else 4
    return [players[(index * 5 + k) % PLAYERS] for k in range(size)]


def _games(evenings: list[Evening], tables: list[list[Player]]) -> list[Game]:
    """A tarot game per evening, its players seated in order, the first one dealing."""
    games = Game.objects.bulk_create(
        Game(evening=evening, number=1, kind=Game.Kind.TAROT, first_dealer=table[0])
        for evening, table in zip(evenings, tables, strict=True)
    )
    Seat.objects.bulk_create(
        Seat(game=game, player=player, position=position)
        for game, table in zip(games, tables, strict=True)
        for position, player in enumerate(table, start=1)
    )
    return games


def _shapes(seated: int) -> list[ScoredShape]:
    """Each shape with the scores it gives, by seat index, through the scoring service."""
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


def _deal(
    game: Game,
    table: list[Player],
    number: int,
    shape: dict[str, Any],
    scores: dict[int, int],
    user: User,
) -> tuple[Deal, dict[int, int]]:
    """Deal ``number`` of a shape (unsaved) and its scores by player id; the taker goes
    round the table."""
    size = len(table)
    turn = number % size

    def seat(i: int) -> Player:
        return table[(i + turn) % size]

    passed = bool(shape.get("passed"))
    # Saved on its evening, three minutes apart (not "just now": see reads.sheet_changes).
    saved = dt.datetime.combine(game.evening.date, dt.time(20), tzinfo=dt.UTC) + dt.timedelta(
        minutes=3 * number
    )
    deal = Deal(
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
        created_at=saved,
        updated_at=saved,
    )
    return deal, {seat(i).pk: score for i, score in scores.items()}


def _store_deals(deals: list[Deal], scored: list[dict[int, int]]) -> None:
    """The deals and their scores, in batches."""
    deals = Deal.objects.bulk_create(deals, batch_size=2000)
    lines = [
        (deal, player_id, score)
        for deal, scores in zip(deals, scored, strict=True)
        for player_id, score in scores.items()
    ]
    if line_totals is None:  # an app from before the read model: no running totals kept
        DealScore.objects.bulk_create(
            DealScore(deal=deal, player_id=player_id, seated=True, score=score)
            for deal, player_id, score in lines
        )
        return
    totals: list[int] = []  # each game's running totals (DealScore.total), by the rules
    for _game, game_lines in itertools.groupby(lines, key=lambda line: line[0].game_id):
        totals.extend(line_totals(list(game_lines)))
    DealScore.objects.bulk_create(
        (
            DealScore(deal=deal, player_id=player_id, seated=True, score=score, total=total)
            for (deal, player_id, score), total in zip(lines, totals, strict=True)
        ),
        batch_size=5000,
    )
