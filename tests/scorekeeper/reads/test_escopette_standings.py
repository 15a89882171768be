"""L'escopette's standings and figures, apart from French Tarot's (issue 7).

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
import json
import re
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from scorekeeper import services
from scorekeeper.exchange import exports
from scorekeeper.models import Game, Season
from scorekeeper.reads import periods, standings
from scorekeeper.reads.player_figures import player_sections
from scorekeeper.reads.tallies import ESCOPETTE, TAROT
from tests.scorekeeper.reads.test_standings import EXPECTED as TAROT_EXPECTED
from tests.scorekeeper.season_factories import (
    World,
    deal,
    hand_computed_season,
    make_world,
    play_escopette,
    play_evening,
    stakes,
)

pytestmark = pytest.mark.django_db

# name: (points, deals, games played, games won, points per deal, rank)
EXPECTED = {
    "Ana": (60 + 1 + 37 + 78, 7, 4, 0, 25.1, 1),
    "Chloé": (27 + 82, 6, 3, 1, 18.2, 2),
    "Ben": (5 + 52 + 20, 7, 4, 1, 11.0, 3),
    "Dan": (39, 2, 2, 0, 19.5, 4),
    "Eve": (15 + 4, 6, 3, 0, 3.2, 5),
}
GAMES, DEALS = 4, 7


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    periods.clear_memo()
    cache.clear()
    yield
    periods.clear_memo()


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


@pytest.fixture
def world() -> World:
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


# --- The figures ----------------------------------------------------------------------------


def test_the_escopette_standings_add_up_the_season_as_computed_by_hand(world: World) -> None:
    season = standings.for_season(season_2025(world), kind=ESCOPETTE)
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
    before = tarot(standings.for_season(season).rows)
    add_escopette_games(world, evenings)
    assert Game.objects.filter(kind="escopette", evening__club=world.club).count() == 5
    after = standings.for_season(season)
    assert tarot(after.rows) == before == TAROT_EXPECTED
    assert after.deals == 5
    assert [e.date.isoformat() for e in after.evenings] == ["2025-01-10", "2025-02-07"]
    both = standings.for_season_by_kind(season)
    assert tarot(both[TAROT].rows) == TAROT_EXPECTED
    assert figures(both[ESCOPETTE].rows) == EXPECTED


def test_all_time_adds_the_game_outside_the_season(world: World) -> None:
    rows = {row.name: row for row in standings.season_stats(world.club, kind=ESCOPETTE).rows}
    dan = rows["Dan"]
    assert (dan.total, dan.deals, dan.games, dan.won) == (39 + 54, 3, 3, 1)
    assert (rows["Ana"].total, rows["Ana"].games) == (176 + 6, 5)


def test_a_deal_saved_later_ends_a_game_and_counts_at_once(world: World) -> None:
    season = season_2025(world)
    assert figures(standings.for_season(season, kind=ESCOPETTE).rows)["Dan"][:4] == (39, 2, 2, 0)
    game = Game.objects.get(evening__club=world.club, evening__date="2025-02-07", number=2)
    p = world.players
    services.deal_record(
        game=game, inputs=stakes({p["Dan"]: (20,), p["Eve"]: (12, 7, 6, 5, 4, 3, 2, 1)})
    )
    # Dan 59, Eve 55: Dan alone in the lead at the target, he wins.
    rows = figures(standings.for_season(season, kind=ESCOPETTE).rows)
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
    rows = figures(standings.season_stats(world.club, kind=ESCOPETTE).rows)
    assert rows["Ana"][:4] == (50, 2, 1, 0)
    assert rows["Chloé"][:4] == (50, 2, 1, 0)
    assert rows["Ana"][5] == rows["Chloé"][5] == 1  # equal points share the rank


# --- The season page ------------------------------------------------------------------------


def test_the_season_page_shows_both_games_apart(world: World, client: Client) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    page = client.get(f"/clubs/{world.club.pk}/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    tarot_html = section(page.text, "standings")
    escopette_html = section(page.text, "escopette-standings")
    assert "French Tarot" in tarot_html and "escopette" not in tarot_html
    assert names_in(tarot_html) == ["Dan", "Eve", "Ana", "Ben", "Chloé"]
    assert "L'escopette" in escopette_html
    assert "4 games" in escopette_html and "7 deals played" in escopette_html
    assert names_in(escopette_html) == ["Ana", "Chloé", "Ben", "Dan", "Eve"]
    cells = re.findall(r"<tr>(.*?)</tr>", escopette_html, re.S)[1:]
    ana = re.sub(r"<[^>]+>", " ", cells[0]).split()
    assert ana == ["1", "Ana", "176", "7", "4", "0", "25.1"]
    ben = re.sub(r"<[^>]+>", " ", cells[2]).split()
    assert ben == ["3", "Ben", "77", "7", "4", "1", "11.0"]
    # The lead counts the evenings and deals of both games: 2025-01-10 (French Tarot),
    # 2025-02-07 (both), 2025-03-01 and 2025-04-04 (L'escopette); 5 + 7 deals.
    assert "4 evenings" in page.text and "12 deals played" in page.text


@pytest.mark.parametrize(
    ("sort", "direction", "order"),
    [
        ("total", "asc", ["Eve", "Dan", "Ben", "Chloé", "Ana"]),
        ("name", "asc", ["Ana", "Ben", "Chloé", "Dan", "Eve"]),
        ("won", "desc", ["Chloé", "Ben", "Ana", "Dan", "Eve"]),
        ("games", "desc", ["Ana", "Ben", "Chloé", "Eve", "Dan"]),
        ("deals", "asc", ["Dan", "Chloé", "Eve", "Ana", "Ben"]),
        ("average", "desc", ["Ana", "Dan", "Chloé", "Ben", "Eve"]),
        ("takes", "asc", ["Eve", "Dan", "Ben", "Chloé", "Ana"]),  # not a column here: points
    ],
)
def test_the_escopette_table_sorts_by_each_column_leaving_the_tarot_table(
    world: World, client: Client, sort: str, direction: str, order: list[str]
) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    page = client.get(
        f"/clubs/{world.club.pk}/seasons/{season.pk}/",
        {"game": "escopette", "sort": sort, "dir": direction},
        HTTP_ACCEPT_LANGUAGE="en",
    ).text
    assert names_in(section(page, "escopette-standings")) == order
    assert names_in(section(page, "standings")) == ["Dan", "Eve", "Ana", "Ben", "Chloé"]


def test_the_escopette_sorting_links_name_the_game_and_come_back_to_the_section(
    world: World, client: Client
) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    url = f"/clubs/{world.club.pk}/seasons/{season.pk}/"
    page = client.get(url, {"game": "escopette", "sort": "won", "dir": "desc"}).text
    html = section(page, "escopette-standings")
    assert re.search(
        r'aria-sort="descending">\s*<a href="[^"]*\?game=escopette&amp;sort=won&amp;dir=asc'
        r'#escopette-standings" hx-get="[^"#]*\?game=escopette&amp;sort=won&amp;dir=asc"',
        html,
    )
    assert html.count("aria-sort=") == 1
    assert 'hx-target="#escopette-standings"' in html
    # The French Tarot table's links stay as they were.
    assert f'href="{url}?sort=name&amp;dir=asc"' in section(page, "standings")


def test_sorting_with_htmx_sends_only_the_escopette_section(world: World, client: Client) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    response = client.get(
        f"/clubs/{world.club.pk}/seasons/{season.pk}/",
        {"game": "escopette", "sort": "name", "dir": "asc"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="escopette-standings",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="escopette-standings"')
    assert '<section id="standings"' not in response.text and "<html" not in response.text
    assert names_in(response.text) == ["Ana", "Ben", "Chloé", "Dan", "Eve"]


def test_a_season_without_lescopette_has_no_section_for_it(world: World, client: Client) -> None:
    january = Season.objects.create(
        club=world.club, name="January", start="2025-01-01", end="2025-01-31"
    )
    client.force_login(world.member)
    page = client.get(
        f"/clubs/{world.club.pk}/seasons/{january.pk}/", HTTP_ACCEPT_LANGUAGE="en"
    ).text
    assert 'id="escopette-standings"' not in page
    assert "French Tarot" not in section(page, "standings")  # one game: no need to name it
    assert names_in(section(page, "standings")) == ["Dan", "Ana", "Ben", "Chloé"]  # 2189, -587…


def test_a_season_of_lescopette_only_says_there_is_no_tarot(world: World, client: Client) -> None:
    april = Season.objects.create(
        club=world.club, name="April", start="2025-04-01", end="2025-04-30"
    )
    client.force_login(world.member)
    page = client.get(f"/clubs/{world.club.pk}/seasons/{april.pk}/", HTTP_ACCEPT_LANGUAGE="en").text
    assert "No deal of French Tarot has been played in this season yet." in page
    assert names_in(section(page, "escopette-standings")) == ["Ana", "Chloé", "Ben", "Eve"]


def test_the_club_page_shows_both_games_of_the_current_season(world: World) -> None:
    from scorekeeper.screens.seasons.views import club_season_context

    season = Season.objects.create(
        club=world.club, name="Long league", start="2025-01-01", end="2099-12-31"
    )
    context = club_season_context(world.club)
    assert context["season"] == season
    assert figures(context["escopette_standings"]) == EXPECTED
    with translation.override("en"):
        html = render_to_string("scorekeeper/seasons/_standings_table.html", context)
    escopette_html = section(html, "escopette-standings")
    assert "Standings: Long league" in escopette_html
    assert names_in(escopette_html) == ["Ana", "Chloé", "Ben", "Dan", "Eve"]
    assert "hx-get" not in html  # on the club page, sorting opens the season's page
    assert (
        f'href="/clubs/{world.club.pk}/seasons/{season.pk}/?game=escopette&amp;sort=name'
        '&amp;dir=asc#escopette-standings"' in escopette_html
    )


# --- A player's page ------------------------------------------------------------------------


def test_a_players_figures_of_lescopette(world: World) -> None:
    season = season_2025(world)
    p = world.players
    tarot_figures, ana = player_sections(p["Ana"], start=season.start, end=season.end)
    assert tarot_figures.summary.total == -313  # French Tarot's, as before
    assert ana is not None
    assert (ana.total, ana.deals, ana.games, ana.won, ana.average) == (176, 7, 4, 0, 25.1)
    _tarot, dan = player_sections(p["Dan"])
    assert dan is not None and (dan.total, dan.deals, dan.games, dan.won) == (93, 3, 3, 1)
    january = Season.objects.create(
        club=world.club, name="January", start="2025-01-01", end="2025-01-31"
    )
    assert player_sections(p["Ana"], start=january.start, end=january.end)[1] is None


def test_the_player_page_has_a_section_for_lescopette(world: World, client: Client) -> None:
    season = season_2025(world)
    client.force_login(world.member)
    url = f"/clubs/{world.club.pk}/players/{world.players['Chloé'].pk}/"
    page = client.get(url, {"season": season.pk}, HTTP_ACCEPT_LANGUAGE="en").text
    assert "French Tarot" in page
    escopette_html = page.split('id="escopette-title"')[1]
    values = re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", escopette_html)
    assert values == [
        ("Points", "109"),
        ("Deals played", "6"),
        ("Per deal", "18.2"),
        ("Games played", "3"),
        ("Games won", "1"),
    ]
    all_time = client.get(url, {"season": "all"}, HTTP_ACCEPT_LANGUAGE="en").text
    assert 'id="escopette-title"' in all_time  # 2024-12-20: Chloé scored 0, and played


def test_a_player_without_lescopette_in_the_scope_has_no_section(
    world: World, client: Client
) -> None:
    january = Season.objects.create(
        club=world.club, name="January", start="2025-01-01", end="2025-01-31"
    )
    client.force_login(world.member)
    url = f"/clubs/{world.club.pk}/players/{world.players['Ana'].pk}/"
    page = client.get(url, {"season": january.pk}, HTTP_ACCEPT_LANGUAGE="en").text
    assert "escopette" not in page.lower()


# --- Exports and imports --------------------------------------------------------------------


def test_a_season_with_lescopette_goes_out_and_back_in_with_the_same_standings(
    world: World,
) -> None:
    season = season_2025(world)
    data = json.loads(exports.season_json(season))
    games = [(e["date"], e["game"], e["sheet"]["game"]) for e in data["evenings"]]
    assert games == [
        ("2025-01-10", 1, "tarot"),
        ("2025-02-07", 1, "tarot"),
        ("2025-02-07", 2, "escopette"),
        ("2025-03-01", 1, "escopette"),
        ("2025-04-04", 1, "escopette"),
        ("2025-04-04", 2, "escopette"),
    ]
    assert {e["sheet"].get("target") for e in data["evenings"][2:]} == {50, 100}
    csv_text = exports.season_csv(season)
    assert len(csv_text.strip().splitlines()) == 1 + 6 + DEALS  # a row per deal, both games
    other = make_world(club="Club B")
    evenings = exports.import_entries(
        club=other.club, entries=exports.read_import(json.dumps(data)), created_by=None
    )
    kinds = [[g.kind for g in e.games.order_by("number")] for e in evenings]
    assert kinds == [["tarot"], ["tarot", "escopette"], ["escopette"], ["escopette", "escopette"]]
    again = Season.objects.get(club=other.club, name="2025")
    assert figures(standings.for_season(again, kind=ESCOPETTE).rows) == EXPECTED
    # Each evening comes back with its games; the French Tarot figures stay the same.
    assert tarot(standings.for_season(again).rows) == TAROT_EXPECTED


# --- Queries ----------------------------------------------------------------------------------

NAMES = ("Ana", "Ben", "Chloé", "Dan", "Eve", "Fred", "Gaby", "Hugo")
SIZES = {"small": (2, 3, 5), "big": (9, 12, 8)}  # evenings, deals of each game, players

# Cold, each game also reads and stores its evenings' figures (EveningTally).
SEASON_PAGE = 15  # as French Tarot's alone (11), and L'escopette's stored, scores, stakes, store
SEASON_PAGE_WARM = 7  # as French Tarot's alone
PLAYER_PAGE = 14  # as French Tarot alone (10), and L'escopette's stored, scores, stakes, store
PLAYER_PAGE_WARM = 6
CLUB_STANDINGS = 12  # as French Tarot alone (8), and L'escopette's stored, scores, stakes, store
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
    from scorekeeper.screens.seasons.views import club_season_context

    with django_assert_max_num_queries(CLUB_STANDINGS):
        context = club_season_context(grown.club)
    assert len(context["standings"]) == len(context["escopette_standings"]) == len(grown.players)
    games = sum(row.games for row in context["escopette_standings"]) // 4  # 4 at each game
    won = sum(row.won for row in context["escopette_standings"])
    assert games == won == Game.objects.filter(evening__club=grown.club, kind="escopette").count()
