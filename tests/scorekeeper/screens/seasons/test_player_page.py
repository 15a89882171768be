"""A player's page: the season and all time, against the season added up by hand."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client

from scorekeeper.models import Season
from scorekeeper.reads import player_figures
from tests.scorekeeper.season_factories import World, fresh_memory, hand_computed_season, make_world

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_memory() -> Iterator[None]:
    yield from fresh_memory()


@pytest.fixture
def world() -> World:
    world = make_world()
    hand_computed_season(world)
    return world


def figures(world: World, name: str, *, all_time: bool = False) -> player_figures.PlayerFigures:
    season = Season.objects.get(club=world.club, name="2025")
    dates = {} if all_time else {"start": season.start, "end": season.end}
    tarot, _escopette = player_figures.player_sections(world.players[name], **dates)
    return tarot


def contracts(f: player_figures.PlayerFigures) -> dict[str, tuple[int, int, int]]:
    return {line.contract: (line.taken, line.made, line.points) for line in f.contracts}


def test_contracts_taken_and_made_by_contract(world: World) -> None:
    assert contracts(figures(world, "Ana")) == {
        "petite": (0, 0, 0),
        "garde": (2, 2, 198 + 160),
        "garde_sans": (0, 0, 0),
        "garde_contre": (0, 0, 0),
    }
    assert contracts(figures(world, "Chloé"))["garde_contre"] == (1, 0, -456)
    assert contracts(figures(world, "Dan"))["garde_sans"] == (1, 1, 2280)


def test_as_the_called_partner(world: World) -> None:
    ben = figures(world, "Ben")
    assert (ben.called, ben.called_made, ben.called_points) == (1, 1, 80)
    # Chloé played alone (she called herself): that is no partner.
    chloe = figures(world, "Chloé")
    assert (chloe.called, chloe.called_made, chloe.called_points) == (0, 0, 0)


def test_petit_au_bout_poignees_and_chelems_count_for_the_players_side(world: World) -> None:
    ana, dan, chloe, eve = (figures(world, n) for n in ("Ana", "Dan", "Chloé", "Eve"))
    # Petit au bout: Dan's chelem deal (attack), Chloé's garde contre (attack).
    assert (dan.petit_au_bout.won, dan.petit_au_bout.lost) == (1, 1)
    assert (chloe.petit_au_bout.won, chloe.petit_au_bout.lost) == (1, 1)
    assert (ana.petit_au_bout.won, ana.petit_au_bout.lost) == (0, 2)
    # The simple poignée went to the side that made the deal: Ana and Ben.
    assert {p.key: (p.won, p.lost) for p in ana.poignees}["simple"] == (1, 0)
    assert {p.key: (p.won, p.lost) for p in eve.poignees}["simple"] == (0, 1)
    assert (dan.chelems.won, dan.chelems.lost) == (1, 0)
    assert (ana.chelems.won, ana.chelems.lost) == (0, 1)
    assert (eve.chelems.won, eve.chelems.lost) == (0, 0)


def test_best_and_worst_evening_and_points_through_the_season(world: World) -> None:
    ana = figures(world, "Ana")
    assert [(e.date.isoformat(), e.total) for e in ana.evenings] == [
        ("2025-01-10", 198 - 25 - 760),
        ("2025-02-07", 160 + 114),
    ]
    assert ana.best is not None and ana.best.total == 274
    assert ana.worst is not None and ana.worst.total == -587
    assert ana.cumulative() == [-587, -313]
    assert (ana.summary.total, ana.summary.deals, ana.summary.takes) == (-313, 5, 2)


def test_all_time_adds_the_evenings_of_every_season(world: World) -> None:
    ana = figures(world, "Ana", all_time=True)
    assert ana.summary.total == -313 + 75
    assert ana.summary.evenings == 3
    assert contracts(ana)["petite"] == (1, 1, 75)


def test_the_page_shows_the_season_and_switches_to_all_time(world: World, client: Client) -> None:
    season = Season.objects.get(club=world.club, name="2025")
    ana = world.players["Ana"]
    client.force_login(world.member)
    url = f"/clubs/{world.club.pk}/players/{ana.pk}/"
    page = client.get(url, {"season": season.pk}, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    text = page.text
    assert "<h1>Ana</h1>" in text
    assert "-313" in text and "274" in text and "-587" in text
    assert 'href="?season=all"' in text
    assert "Points through the season" in text
    every = client.get(url, {"season": "all"}, HTTP_ACCEPT_LANGUAGE="en").text
    assert "All time" in every and "-238" in every
    assert "Points, all time" in every


def test_without_a_season_the_page_shows_the_current_one(world: World, client: Client) -> None:
    client.force_login(world.member)
    ana = world.players["Ana"]
    page = client.get(f"/clubs/{world.club.pk}/players/{ana.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    # No season covers today: the latest one (2025) is shown.
    assert 'aria-current="page">2025<' in page.text


def test_a_player_who_never_played_has_an_empty_page(client: Client) -> None:
    world = make_world()
    client.force_login(world.member)
    eve = world.players["Eve"]
    page = client.get(
        f"/clubs/{world.club.pk}/players/{eve.pk}/?season=all", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert page.status_code == 200
    assert "Never called." in page.text
    assert "<svg" not in page.text


def test_a_season_of_another_club_is_not_found(world: World, client: Client) -> None:
    other = make_world(names=("Zoé", "Yves", "Xavier"), club="Other club")
    other_season = Season.objects.create(
        club=other.club, name="Theirs", start="2025-01-01", end="2025-12-31"
    )
    client.force_login(world.member)
    ana = world.players["Ana"]
    response = client.get(f"/clubs/{world.club.pk}/players/{ana.pk}/?season={other_season.pk}")
    assert response.status_code == 404
