"""The admin goes through the services, or is read-only for what the pages read: a rename
there shows on every page at the next request; the evenings, deals and the rest cannot be
changed behind the versions the pages are cached by."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import (
    Deal,
    DealScore,
    Evening,
    Game,
    Player,
    Season,
    Seat,
    Tournament,
)
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import make_club, make_user, start_evening
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db

OLD, NEW = "Quentin", "Ysolde"


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root@example.com", display_name="Root"))
    return client


def _posted(page) -> dict[str, object]:
    """What the admin's change page posts back unchanged."""
    form = page.context["adminform"].form
    data: dict[str, object] = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value.pk if hasattr(value, "pk") else value
    return data


def _played() -> tuple[Client, list[str], Player]:
    """A club's evening of two deals, its season, and the owner's browser with every page
    that shows the players' names already drawn (and cached)."""
    club, players = make_club(players=("Ana", "Ben", "Chloé", OLD))
    evening, game = start_evening(club, players)
    seated = tuple(p.pk for p in players)
    for taker in seated[:2]:
        services.deal_record(
            game=game,
            inputs=TarotDeal(seated=seated, taker=taker, contract="garde", bouts=2, points=50),
        )
    today = dt.date.today()
    season = services.season_create(
        club=club, name="Year", start=today - dt.timedelta(days=30), end=today
    )
    quentin = players[3]
    pages = [
        reverse("evening", args=[evening.pk]),
        reverse("club", args=[club.pk]),
        reverse("season", args=[club.pk, season.pk]),
        reverse("player", args=[club.pk, quentin.pk]),
        reverse("figures_ratings", args=[club.pk]),
        reverse("figures_head_to_head", args=[club.pk]),
    ]
    owner = Client()
    owner.force_login(club.memberships.get(role="owner").user)
    for url in pages:
        page = owner.get(url)
        assert page.status_code == 200 and OLD in page.text, url
    return owner, pages, quentin


def test_a_rename_in_the_admin_shows_on_every_page_at_the_next_request(staff: Client) -> None:
    owner, pages, quentin = _played()
    url = reverse("admin:scorekeeper_player_change", args=[quentin.pk])
    response = staff.post(url, {**_posted(staff.get(url)), "name": NEW})
    assert response.status_code == 302
    assert Player.objects.get(pk=quentin.pk).name == NEW
    for page_url in pages:
        page = owner.get(page_url)
        assert NEW in page.text and OLD not in page.text, page_url


def test_what_the_app_refuses_the_admin_refuses_and_saves_nothing(staff: Client) -> None:
    _club, players = make_club()
    outsider = make_user("zed@example.com", "Zed")  # no member of the club
    url = reverse("admin:scorekeeper_player_change", args=[players[0].pk])
    data = {**_posted(staff.get(url)), "name": "Ana Maria", "user": outsider.pk}
    response = staff.post(url, data, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "not a member of this club" in response.text
    player = Player.objects.get(pk=players[0].pk)
    assert (player.name, player.user_id) == (players[0].name, None)


def test_a_player_added_in_the_admin_is_added_as_the_app_adds_one(staff: Client) -> None:
    club, _players = make_club()
    response = staff.post(
        reverse("admin:scorekeeper_player_add"), {"club": club.pk, "name": "  Zoé   Martin "}
    )
    assert response.status_code == 302
    assert club.players.filter(name="Zoé Martin").exists()


def test_the_rows_the_pages_read_cannot_be_added_changed_or_deleted_in_the_admin(
    staff: Client,
) -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    seated = tuple(p.pk for p in players)
    deal = services.deal_record(
        game=game,
        inputs=TarotDeal(seated=seated, taker=seated[0], contract="garde", bouts=2, points=50),
    )
    _club, _players, tournament = make_tournament(4, rounds=1, email="org@example.com")
    today = dt.date.today()
    season = services.season_create(club=club, name="Year", start=today, end=today)
    rows = [
        evening,
        game,
        Seat.objects.filter(game=game).first(),
        deal,
        DealScore.objects.filter(deal=deal).first(),
        season,
        tournament,
    ]
    for row in rows:
        meta = row._meta
        change = reverse(f"admin:scorekeeper_{meta.model_name}_change", args=[row.pk])
        page = staff.get(change)
        assert page.status_code == 200  # shown
        assert staff.post(change, _posted(page)).status_code == 403, meta.model_name
        add = reverse(f"admin:scorekeeper_{meta.model_name}_add")
        assert staff.get(add).status_code == 403, meta.model_name
        delete = reverse(f"admin:scorekeeper_{meta.model_name}_delete", args=[row.pk])
        assert staff.post(delete, {"post": "yes"}).status_code == 403, meta.model_name
    assert Evening.objects.filter(pk=evening.pk).exists() and Deal.objects.filter(pk=deal.pk)
    assert Game.objects.filter(pk=game.pk).exists() and Season.objects.filter(pk=season.pk)
    assert Tournament.objects.filter(pk=tournament.pk).exists()
