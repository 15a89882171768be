"""The season page keeps what it draws from shared figures (the standings table, the chart)
in the caches, and draws without keeping just after a deal saved (the next save would make
it out of date): no cache write on the view a club night asks most."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.templatetags import cache as cache_tag
from django.test import Client

from scorekeeper import services
from scorekeeper.models import Season
from scorekeeper.reads import periods
from scorekeeper.server import shared_cache
from tests.scorekeeper.season_factories import World, deal, hand_computed_season, make_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> Iterator[World]:
    periods.clear_memo()
    world = make_world()
    hand_computed_season(world)
    yield world
    periods.clear_memo()


def _view(client: Client, world: World, monkeypatch) -> tuple[list[str], list[str]]:
    """The fragments the page went through the cache for, and the chart keys it kept."""
    fragments: list[str] = []
    kept: list[str] = []
    render = cache_tag.CacheNode.render

    def through_cache(node: cache_tag.CacheNode, context) -> str:
        fragments.append(node.fragment_name)
        return render(node, context)

    keep = shared_cache.cache.set

    def set_and_note(key: str, *args, **kwargs) -> None:
        if key.startswith("chart."):
            kept.append(key)
        keep(key, *args, **kwargs)

    monkeypatch.setattr(cache_tag.CacheNode, "render", through_cache)
    monkeypatch.setattr(shared_cache.cache, "set", set_and_note)
    season = Season.objects.get(club=world.club, name="2025")
    response = client.get(f"/clubs/{world.club.pk}/seasons/{season.pk}/")
    monkeypatch.undo()
    assert response.status_code == 200
    return fragments, kept


def test_the_page_of_a_deal_just_saved_keeps_nothing_and_shared_figures_keep_it_all(
    world: World, client: Client, monkeypatch
) -> None:
    client.force_login(world.member)
    four = [world.players[name] for name in ("Ana", "Ben", "Chloé", "Dan")]
    tonight = services.evening_start(
        club=world.club,
        players=four,
        first_dealer=four[0],
        created_by=world.owner,
        date=dt.date(2025, 3, 1),
    )
    game = tonight.games.get()
    services.deal_record(game=game, inputs=deal(four, four[1], "garde", 2, 60), created_by=None)
    fragments, kept = _view(client, world, monkeypatch)  # a new night: added up afresh
    assert {"season_standings", "line_chart"} <= set(fragments) and kept

    services.deal_record(game=game, inputs=deal(four, four[2], "petite", 1, 30), created_by=None)
    fragments, kept = _view(client, world, monkeypatch)  # tonight's evening added: not kept
    assert "season_standings" not in fragments and "line_chart" not in fragments
    assert kept == []

    shared_cache.forget_local()
    cache.clear()  # a restart without Redis: the figures added up afresh, and shared
    fragments, kept = _view(client, world, monkeypatch)
    assert {"season_standings", "line_chart"} <= set(fragments) and kept
