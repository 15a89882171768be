"""Helpers for the season tests: a club, its people, evenings of deals through the services."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import Club, Deal, Evening, Game, Membership, Player, Season
from scorekeeper.models.figures import KINDS
from scorekeeper.reads.standings import SeasonStats, standings_of
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal


@dataclass
class World:
    club: Club
    owner: User
    member: User
    outsider: User
    players: dict[str, Player]


def fresh_memory() -> Iterator[None]:
    """For an autouse fixture (``yield from fresh_memory()``): the cache emptied before and
    after the test."""
    cache.clear()
    yield
    cache.clear()


def make_world(
    names: Sequence[str] = ("Ana", "Ben", "Chloé", "Dan", "Eve"), *, club: str = "Les Bouts"
) -> World:
    """A club with its owner, a member, someone from outside, and its players."""
    tag = club.lower().replace(" ", "-")
    owner = User.objects.create_user(f"owner@{tag}.example.com")
    member = User.objects.create_user(f"member@{tag}.example.com")
    outsider = User.objects.create_user(f"outsider@{tag}.example.com")
    the_club = services.club_create(name=club, owner=owner)
    Membership.objects.create(club=the_club, user=member)
    players = {name: services.player_add(club=the_club, name=name) for name in names}
    return World(club=the_club, owner=owner, member=member, outsider=outsider, players=players)


def deal(
    seated: Sequence[Player], taker: Player, contract: str, bouts: int, points: Any, **kw: Any
):
    """A played deal, players as objects."""
    partner = kw.pop("partner", None)
    return TarotDeal(
        seated=tuple(p.pk for p in seated),
        taker=taker.pk,
        contract=contract,
        bouts=bouts,
        points=points,
        partner=partner.pk if partner is not None else None,
        **kw,
    )


def passed(seated: Sequence[Player]) -> PassedDeal[int]:
    return PassedDeal(seated=tuple(p.pk for p in seated))


def play_evening(
    world: World,
    date: dt.date,
    table: Sequence[Player],
    deals: Sequence[Any],
    *,
    place: str = "",
) -> Evening:
    """An evening at this table, each deal recorded (and scored) by the services."""
    evening = services.evening_start(
        club=world.club,
        players=list(table),
        first_dealer=table[0],
        created_by=world.owner,
        date=date,
        place=place,
    )
    game = evening.games.get()
    for inputs in deals:
        services.deal_record(game=game, inputs=inputs, created_by=world.owner)
    return evening


def escopette_evening(world: World, date: dt.date, table: Sequence[Player]) -> Evening:
    """An evening of L'escopette: it must not count in the tarot standings."""
    from scorekeeper.scoring.escopette import STAKE_TRUMPS, EscopetteDeal

    evening = services.evening_start(
        club=world.club,
        players=list(table),
        first_dealer=table[0],
        created_by=world.owner,
        date=date,
        kind="escopette",
        target=100,
    )
    stakes = {trump: table[0].pk for trump in STAKE_TRUMPS}
    services.deal_record(game=evening.games.get(), inputs=EscopetteDeal(stakes=stakes))
    return evening


def hand_computed_season(world: World) -> dict[str, Evening]:
    """The season the standings tests add up by hand (rules.md §7 gives each deal's scores).

    Evening 1, 2025-01-10, Ana Ben Chloé Dan:
      1. Ana garde, 2 bouts, 49                       Ana +198, others -66
      2. everyone passed                                0 each
      3. Ben petite, 1 bout, 51                       Ben +75, others -25
      4. Dan garde sans, 3 bouts, 91, petit au bout attack, chelem announced
                                                       Dan +2280, others -760
    Evening 2, 2025-02-07, Ana Ben Chloé Dan Eve:
      1. Ana garde, calls Ben, 2 bouts, 45.5, one simple poignée
                                                       Ana +160, Ben +80, others -80
      2. Chloé garde contre alone, 1 bout, 47, petit au bout attack
                                                       Chloé -456, others +114
    Outside the season: 2024-12-31 Ana petite, 1 bout, 51 (Ana +75, Ben Chloé Dan -25);
    and in it, an evening of L'escopette (not tarot: not counted).
    """
    p = world.players
    ana, ben, chloe, dan, eve = p["Ana"], p["Ben"], p["Chloé"], p["Dan"], p["Eve"]
    four, five = [ana, ben, chloe, dan], [ana, ben, chloe, dan, eve]
    before = play_evening(world, dt.date(2024, 12, 31), four, [deal(four, ana, "petite", 1, 51)])
    first = play_evening(
        world,
        dt.date(2025, 1, 10),
        four,
        [
            deal(four, ana, "garde", 2, 49),
            passed(four),
            deal(four, ben, "petite", 1, 51),
            deal(
                four,
                dan,
                "garde_sans",
                3,
                91,
                petit_au_bout="attack",
                chelem="announced",
            ),
        ],
        place="Café du Commerce",
    )
    second = play_evening(
        world,
        dt.date(2025, 2, 7),
        five,
        [
            deal(five, ana, "garde", 2, 45.5, partner=ben, poignees=("simple",)),
            deal(five, chloe, "garde_contre", 1, 47, partner=chloe, petit_au_bout="attack"),
        ],
    )
    escopette = escopette_evening(world, dt.date(2025, 3, 1), four)
    return {"before": before, "first": first, "second": second, "escopette": escopette}


def stakes(won: dict[Player, Sequence[int]]) -> Any:
    """A deal of L'escopette: who won which stake trumps, players as objects."""
    from scorekeeper.scoring.escopette import EscopetteDeal

    return EscopetteDeal(
        stakes={trump: player.pk for player, trumps in won.items() for trump in trumps}
    )


def play_escopette(
    world: World,
    date: dt.date,
    table: Sequence[Player],
    target: int,
    deals: Sequence[Any],
    *,
    evening: Evening | None = None,
) -> Any:
    """A game of L'escopette, in a new evening or as the next game of ``evening``."""
    if evening is None:
        evening = services.evening_start(
            club=world.club,
            players=list(table),
            first_dealer=table[0],
            created_by=world.owner,
            date=date,
            kind="escopette",
            target=target,
        )
        game = evening.games.get()
    else:
        game = services.game_start(
            evening=evening,
            players=list(table),
            first_dealer=table[0],
            kind="escopette",
            target=target,
        )
    for inputs in deals:
        services.deal_record(game=game, inputs=inputs, created_by=world.owner)
    return game


TONIGHT = dt.date(2025, 3, 8)


@dataclass(frozen=True)
class Tonight:
    evening: Evening
    game: Game
    five: list[Player]  # Ana, Ben, Chloé, Dan, Eve
    first: Deal  # Ana's garde, Ben called


def tonight() -> Tonight:
    """A club of five players, tonight's evening (``TONIGHT``) with the five at the table,
    and its first deal saved (the tests of what a deal saved tonight changes)."""
    world = make_world()
    five = list(world.players.values())
    evening = services.evening_start(
        club=world.club, players=five, first_dealer=five[0], created_by=world.owner, date=TONIGHT
    )
    game = evening.games.get()
    first = deal(five, five[0], "garde", 2, 52, partner=five[1])
    return Tonight(evening, game, five, services.deal_record(game=game, inputs=first))


def second_table(night: Tonight) -> Game:
    """Another table tonight in the same club (Eve, Dan, Chloé, Ben), its first deal saved:
    its game."""
    table = night.five[:0:-1]
    evening = services.evening_start(
        club=night.evening.club, players=table, first_dealer=table[0], created_by=None, date=TONIGHT
    )
    game = evening.games.get()
    services.deal_record(game=game, inputs=deal(table, table[0], "garde", 1, 60))
    return game


def season_stats_by_kind(
    club: Club | int,
    *,
    start: dt.date | None = None,
    end: dt.date | None = None,
    kinds: Sequence[str] = KINDS,
) -> dict[str, SeasonStats]:
    """Each game's standings from start to end (either open), added up now (the pages read
    ``standings_of`` lazily, and add up only what they draw)."""
    club_id = club.pk if isinstance(club, Club) else club
    return dict(standings_of(club_id, start, end, kinds)[1])


def for_season_by_kind(season: Season, kinds: Sequence[str] = KINDS) -> dict[str, SeasonStats]:
    """``season_stats_by_kind`` of the season's dates."""
    return season_stats_by_kind(season.club_id, start=season.start, end=season.end, kinds=kinds)
