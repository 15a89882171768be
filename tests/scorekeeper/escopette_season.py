"""A season with games of L'escopette beside French Tarot's, added up by hand: the world the
escopette tests share (its fixtures are imported by each test module).

The season of ``hand_computed_season`` (French Tarot, and one deal of L'escopette on
2025-03-01) gets more games of L'escopette, added up here by hand (rules.md §6: each stake
trump is worth its number, 60 a deal; a game goes to the player alone in the lead at its
target, a tie at the target plays on):

2025-03-01, to 100, Ana Ben Chloé Dan (hand_computed_season):
  1. Ana wins all nine trumps                         Ana 60              no winner yet
2025-02-07, the French Tarot evening, a second game, to 50, Ana Ben Dan Eve:
  1. Dan 20 12 7, Eve 6 5 4, Ben 3 2, Ana 1           Dan 39 Eve 15 Ben 5 Ana 1  no winner yet
2025-04-04, game 1, to 50, Ana Ben Chloé Eve:
  1. Ben 20 12, Ana 7 6 5, Chloé 4 3 2, Eve 1         Ben 32 Ana 18 Chloé 9 Eve 1
  2. Ben 20, Ana 12 7, Chloé 6 5 4 3, Eve 2 1         Ben 52 Ana 37 Chloé 27 Eve 4: Ben wins
2025-04-04, game 2, to 50, Ana Ben Chloé Eve:
  1. Ana 20 7 3, Chloé 12 6 5 4 2 1                   Ana 30 Chloé 30
  2. Ana 20, Chloé 12 7 1, Ben 6 5 4 3 2              Ana 50 Chloé 50 Ben 20: a tie, play on
  3. Chloé 20 12, Ana 7 6 5 4 3 2 1                   Chloé 82 Ana 78: Chloé wins
Outside the season, 2024-12-20, to 50, Ana Ben Chloé Dan:
  1. Dan 20 12 7 6 5 4, Ana 3 2 1                     Dan 54: Dan wins
"""

from __future__ import annotations

import datetime as dt
import re

from scorekeeper.models import Game, Season
from scorekeeper.reads import standings
from tests.scorekeeper.season_factories import (
    World,
    hand_computed_season,
    make_world,
    play_escopette,
    stakes,
)

# name: (points, deals, games played, games won, points per deal, rank)
EXPECTED = {
    "Ana": (60 + 1 + 37 + 78, 7, 4, 0, 25.1, 1),
    "Chloé": (27 + 82, 6, 3, 1, 18.2, 2),
    "Ben": (5 + 52 + 20, 7, 4, 1, 11.0, 3),
    "Dan": (39, 2, 2, 0, 19.5, 4),
    "Eve": (15 + 4, 6, 3, 0, 3.2, 5),
}
GAMES, DEALS = 4, 7


def add_escopette_games(world: World, evenings: dict) -> dict[str, Game]:
    p = world.players
    ana, ben, chloe, dan, eve = p["Ana"], p["Ben"], p["Chloé"], p["Dan"], p["Eve"]
    table = [ana, ben, chloe, eve]
    february = play_escopette(
        world,
        dt.date(2025, 2, 7),
        [ana, ben, dan, eve],
        50,
        [stakes({dan: (20, 12, 7), eve: (6, 5, 4), ben: (3, 2), ana: (1,)})],
        evening=evenings["second"],
    )
    first = play_escopette(
        world,
        dt.date(2025, 4, 4),
        table,
        50,
        [
            stakes({ben: (20, 12), ana: (7, 6, 5), chloe: (4, 3, 2), eve: (1,)}),
            stakes({ben: (20,), ana: (12, 7), chloe: (6, 5, 4, 3), eve: (2, 1)}),
        ],
    )
    second = play_escopette(
        world,
        dt.date(2025, 4, 4),
        table,
        50,
        [
            stakes({ana: (20, 7, 3), chloe: (12, 6, 5, 4, 2, 1)}),
            stakes({ana: (20,), chloe: (12, 7, 1), ben: (6, 5, 4, 3, 2)}),
            stakes({chloe: (20, 12), ana: (7, 6, 5, 4, 3, 2, 1)}),
        ],
        evening=first.evening,
    )
    before = play_escopette(
        world,
        dt.date(2024, 12, 20),
        [ana, ben, chloe, dan],
        50,
        [stakes({dan: (20, 12, 7, 6, 5, 4), ana: (3, 2, 1)})],
    )
    return {"february": february, "first": first, "second": second, "before": before}


def escopette_world() -> World:
    world = make_world()
    add_escopette_games(world, hand_computed_season(world))
    return world


def season_2025(world: World) -> Season:
    return Season.objects.get(club=world.club, name="2025")


def figures(rows: list[standings.StandingRow]) -> dict[str, tuple]:
    return {r.name: (r.total, r.deals, r.games, r.won, r.average, r.rank) for r in rows}


def tarot(rows: list[standings.StandingRow]) -> dict[str, tuple]:
    return {
        r.name: (r.total, r.evenings, r.deals, r.takes, r.made, r.average, r.rank) for r in rows
    }


def section(page: str, section_id: str) -> str:
    return page.split(f'<section id="{section_id}"')[1].split("</section>")[0]


def names_in(html: str) -> list[str]:
    return re.findall(r'class="player-name"><a href="[^"]+">([^<]+)</a>', html)
