"""The home page of a signed-in person: their clubs, the evenings in progress, a button to
start one; in a number of queries that does not grow with the clubs and evenings."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import Club, Evening, Membership

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def ana() -> User:
    return User.objects.create_user("ana@example.com", display_name="Ana")


def test_a_visitor_still_gets_the_product_page_with_a_way_to_sign_in(client: Client) -> None:
    response = client.get("/", **EN)
    assert response.status_code == 200
    assert "Keep the score of French Tarot" in response.text
    assert reverse("accounts:login") in response.text
    assert reverse("counter") in response.text


def test_home_lists_my_clubs_with_a_button_to_start_an_evening(client: Client, ana: User) -> None:
    mine = services.club_create(name="Les Excuses", owner=ana)
    joined = services.club_create(
        name="Le Chien", owner=User.objects.create_user("ben@example.com")
    )
    Membership.objects.create(club=joined, user=ana)
    services.club_create(name="Not Mine", owner=User.objects.create_user("eve@example.com"))
    client.force_login(ana)

    response = client.get("/", **EN)

    assert response.status_code == 200
    text = response.text
    assert "Hello, Ana" in text
    for club in (mine, joined):
        assert reverse("club", args=[club.pk]) in text
        assert reverse("evening_new", args=[club.pk]) in text
    assert "Not Mine" not in text
    assert text.index("Le Chien") < text.index("Les Excuses")
    assert reverse("club_new") in text


def test_home_without_a_club_invites_to_create_one(client: Client, ana: User) -> None:
    client.force_login(ana)
    response = client.get("/", **EN)
    assert "You are in no club yet" in response.text
    assert 'name="club-name"' in response.text
    assert "Evenings in progress" not in response.text


def test_home_lists_the_evenings_in_progress_of_my_clubs_newest_first(
    client: Client, ana: User
) -> None:
    club = services.club_create(name="Les Excuses", owner=ana)
    older = Evening.objects.create(club=club, date=dt.date(2026, 11, 20), place="Chez Ana")
    newer = Evening.objects.create(club=club, date=dt.date(2026, 11, 27))
    closed = Evening.objects.create(club=club, date=dt.date(2026, 11, 28), closed_at=timezone.now())
    other = services.club_create(name="Not Mine", owner=User.objects.create_user("eve@example.com"))
    strangers = Evening.objects.create(club=other, date=dt.date(2026, 11, 28))
    client.force_login(ana)

    text = client.get("/", **EN).text

    assert "Evenings in progress" in text
    assert "Chez Ana" in text
    newer_url = reverse("evening", args=[newer.pk])
    older_url = reverse("evening", args=[older.pk])
    assert text.index(newer_url) < text.index(older_url)
    assert reverse("evening", args=[closed.pk]) not in text
    assert reverse("evening", args=[strangers.pk]) not in text


def make_clubs(owner: User, count: int) -> list[Club]:
    clubs = []
    for number in range(count):
        club = services.club_create(name=f"Club {number}", owner=owner)
        for day in (1, 2):
            Evening.objects.create(club=club, date=dt.date(2026, 11, day))
        Evening.objects.create(club=club, date=dt.date(2026, 10, 1), closed_at=timezone.now())
        clubs.append(club)
    return clubs


@pytest.mark.parametrize("clubs", [1, 8])
def test_home_takes_the_same_few_queries_for_one_club_or_many(
    client: Client, ana: User, django_assert_max_num_queries, clubs: int
) -> None:
    make_clubs(ana, clubs)
    client.force_login(ana)
    # The session, the user, the clubs, the evenings in progress.
    with django_assert_max_num_queries(4):
        response = client.get("/")
    assert response.status_code == 200
    assert response.text.count('class="card club-card"') == clubs
