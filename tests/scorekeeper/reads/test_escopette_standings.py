"""L'escopette's standings and figures, apart from French Tarot's, and their query counts
(the season is added up by hand in ``tests/scorekeeper/escopette_season.py``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Game, Season
from scorekeeper.models.figures import ESCOPETTE, TAROT
from tests.scorekeeper.escopette_season import (
    DEALS,
    EXPECTED,
    GAMES,
    add_escopette_games,
    escopette_world,
    figures,
    names_in,
    season_2025,
    section,
    tarot,
)
from tests.scorekeeper.reads.test_standings import EXPECTED as TAROT_EXPECTED
from tests.scorekeeper.season_factories import (
    World,
    deal,
    for_season_by_kind,
    fresh_memory,
    hand_computed_season,
    make_world,
    play_escopette,
    play_evening,
    season_stats_by_kind,
    stakes,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    yield from fresh_memory()


@pytest.fixture
def world() -> World:
    return escopette_world()


# --- The figures ----------------------------------------------------------------------------


def test_the_escopette_standings_add_up_the_season_as_computed_by_hand(world: World) -> None:
    season = for_season_by_kind(season_2025(world))[ESCOPETTE]
    assert figures(season.rows) == EXPECTED
    assert [row.name for row in season.rows] == ["Ana", "Chloé", "Ben", "Dan", "Eve"]
    assert sum(row.total for row in season.rows) == 60 * DEALS
    assert (season.games, season.deals) == (GAMES, DEALS)
    assert [e.date.isoformat() for e in season.evenings] == [
        "2025-02-07",
        "2025-03-01",
        "2025-04-04",
    ]


def test_the_tarot_standings_are_unchanged_by_the_games_of_lescopette() -> None:
    world = make_world()
    evenings = hand_computed_season(world)
    season = season_2025(world)
    before = tarot(for_season_by_kind(season)[TAROT].rows)
    add_escopette_games(world, evenings)
    assert Game.objects.filter(kind="escopette", evening__club=world.club).count() == 5
    after = for_season_by_kind(season)[TAROT]
    assert tarot(after.rows) == before == TAROT_EXPECTED
    assert after.deals == 5
    assert [e.date.isoformat() for e in after.evenings] == ["2025-01-10", "2025-02-07"]
    both = for_season_by_kind(season)
    assert tarot(both[TAROT].rows) == TAROT_EXPECTED
    assert figures(both[ESCOPETTE].rows) == EXPECTED


def test_all_time_adds_the_game_outside_the_season(world: World) -> None:
    rows = {row.name: row for row in season_stats_by_kind(world.club)[ESCOPETTE].rows}
    dan = rows["Dan"]
    assert (dan.total, dan.deals, dan.games, dan.won) == (39 + 54, 3, 3, 1)
    assert (rows["Ana"].total, rows["Ana"].games) == (176 + 6, 5)


def test_a_deal_saved_later_ends_a_game_and_counts_at_once(world: World) -> None:
    season = season_2025(world)
    assert figures(for_season_by_kind(season)[ESCOPETTE].rows)["Dan"][:4] == (39, 2, 2, 0)
    game = Game.objects.get(evening__club=world.club, evening__date="2025-02-07", number=2)
    p = world.players
    services.deal_record(
        game=game, inputs=stakes({p["Dan"]: (20,), p["Eve"]: (12, 7, 6, 5, 4, 3, 2, 1)})
    )
    # Dan 59, Eve 55: Dan alone in the lead at the target, he wins.
    rows = figures(for_season_by_kind(season)[ESCOPETTE].rows)
    assert rows["Dan"][:4] == (59, 3, 2, 1)
    assert rows["Eve"][:4] == (19 + 40, 7, 3, 0)


def test_a_player_in_the_lead_with_others_at_the_target_does_not_win_a_tie() -> None:
    """The tie at 50 after deal 2 of game 2 ended nothing; only deal 3 did (for Chloé)."""
    world = make_world()
    p = world.players
    ana, ben, chloe, eve = p["Ana"], p["Ben"], p["Chloé"], p["Eve"]
    play_escopette(
        world,
        dt.date(2025, 4, 4),
        [ana, ben, chloe, eve],
        50,
        [
            stakes({ana: (20, 7, 3), chloe: (12, 6, 5, 4, 2, 1)}),
            stakes({ana: (20,), chloe: (12, 7, 1), ben: (6, 5, 4, 3, 2)}),
        ],
    )
    rows = figures(season_stats_by_kind(world.club)[ESCOPETTE].rows)
    assert rows["Ana"][:4] == (50, 2, 1, 0)
    assert rows["Chloé"][:4] == (50, 2, 1, 0)
    assert rows["Ana"][5] == rows["Chloé"][5] == 1  # equal points share the rank


# --- Queries ----------------------------------------------------------------------------------

NAMES = ("Ana", "Ben", "Chloé", "Dan", "Eve", "Fred", "Gaby", "Hugo")
SIZES = {"small": (2, 3, 5), "big": (9, 12, 8)}  # evenings, deals of each game, players

# Both games' standings come from the stored evening figures: the same queries as one game's,
# whatever the size (the players' sums, their evenings, the evenings' counts).
SEASON_PAGE = 12  # cold: the evenings at their versions, the settled ones added up, tonight's
SEASON_PAGE_WARM = 6  # the evenings at their versions: the figures are in the cache
PLAYER_PAGE = 6
PLAYER_PAGE_WARM = 6
CLUB_STANDINGS = 12
ESCOPETTE_SORT_HTMX = 6


def grow(evenings: int, deals_each: int, players: int) -> World:
    """Evenings of French Tarot, each with a game of L'escopette after it, won by someone."""
    world = make_world(names=NAMES[:players])
    everyone = list(world.players.values())
    for number in range(evenings):
        date = dt.date(2025, 1, 1) + dt.timedelta(days=7 * number)
        table = [everyone[(number + k) % players] for k in range(4)]
        tarot_deals = [deal(table, table[n % 4], "garde", 2, 40 + n % 9) for n in range(deals_each)]
        evening = play_evening(world, date, table, tarot_deals)
        a, b, c, _d = table
        even = stakes({a: (20,), b: (12, 7, 1), c: (6, 5, 4, 3, 2)})  # a tie: play on
        last = stakes({a: (20, 12, 7, 6, 5, 4, 3, 2, 1)})
        play_escopette(world, date, table, 50, [even] * (deals_each - 1) + [last], evening=evening)
    return world


@pytest.fixture(params=list(SIZES))
def grown(request: pytest.FixtureRequest) -> World:
    return grow(*SIZES[request.param])


def test_the_season_page_with_both_games(
    grown: World, client: Client, django_assert_max_num_queries
) -> None:
    season = Season.objects.get(club=grown.club)
    client.force_login(grown.member)
    url = f"/clubs/{grown.club.pk}/seasons/{season.pk}/"
    with django_assert_max_num_queries(SEASON_PAGE):
        page = client.get(url).text
    assert len(names_in(section(page, "escopette-standings"))) == len(grown.players)
    with django_assert_max_num_queries(SEASON_PAGE_WARM):
        assert client.get(url, {"game": "escopette", "sort": "won"}).status_code == 200
    with django_assert_max_num_queries(ESCOPETTE_SORT_HTMX):
        response = client.get(
            url,
            {"game": "escopette", "sort": "games"},
            HTTP_HX_REQUEST="true",
            HTTP_HX_TARGET="escopette-standings",
        )
    assert response.status_code == 200


def test_a_players_page_with_both_games(
    grown: World, client: Client, django_assert_max_num_queries
) -> None:
    season = Season.objects.get(club=grown.club)
    client.force_login(grown.member)
    url = f"/clubs/{grown.club.pk}/players/{grown.players['Ana'].pk}/"
    with django_assert_max_num_queries(PLAYER_PAGE):
        page = client.get(url, {"season": season.pk}).text
    assert 'id="escopette-title"' in page
    with django_assert_max_num_queries(PLAYER_PAGE_WARM):
        assert client.get(url, {"season": season.pk}).status_code == 200
    with django_assert_max_num_queries(PLAYER_PAGE):
        assert client.get(url, {"season": "all"}).status_code == 200


def test_the_club_pages_standings_with_both_games(
    grown: World, django_assert_max_num_queries
) -> None:
    from scorekeeper.screens.standings import club_season_context

    with django_assert_max_num_queries(CLUB_STANDINGS):
        context = club_season_context(grown.club)
    assert len(context["standings"]) == len(context["escopette_standings"]) == len(grown.players)
    games = sum(row.games for row in context["escopette_standings"]) // 4  # 4 at each game
    won = sum(row.won for row in context["escopette_standings"])
    assert games == won == Game.objects.filter(evening__club=grown.club, kind="escopette").count()
