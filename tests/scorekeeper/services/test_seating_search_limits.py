"""What one member can make the server compute with "Search for a better seating": one search
ends within its budget, and an account may ask for ``costly.PER_HOUR`` an hour."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper import services
from scorekeeper.models import CostlyAction
from scorekeeper.services import costly, tournament_fixes
from tests.factories import make_member
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
SEARCHES = costly.SEARCHES_PER_HOUR


def test_one_search_on_a_tournament_that_cannot_avoid_repeats_ends_within_its_budget() -> None:
    # 12 players over 6 rounds must meet again: the search spends its whole budget. With
    # the former budget (2,000,000 swaps weighed, no time limit) it held a worker 2.6 to 4.6 s.
    _club, _players, tournament = make_tournament(12, rounds=6)
    owner = tournament.club.memberships.get(role="owner").user
    start = time.perf_counter()
    services.tournament_schedule_search(tournament=tournament, by=owner)
    assert time.perf_counter() - start < tournament_fixes.SEARCH_SECONDS + 1.0
    tournament.refresh_from_db()
    assert len(tournament.schedule["rounds"]) == 6


@pytest.fixture
def cheap_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournament_fixes, "SEARCH_WORK", 1_000)


def test_an_account_past_its_hourly_searches_is_told_when_to_come_back(
    cheap_searches: None,
) -> None:
    _club, _players, tournament = make_tournament(8, rounds=3)
    owner = tournament.club.memberships.get(role="owner").user
    for _ in range(SEARCHES):
        services.tournament_schedule_search(tournament=tournament, by=owner)
    with (
        translation.override("en"),
        pytest.raises(costly.TooCostly, match="try again in 60 minutes"),
    ):
        services.tournament_schedule_search(tournament=tournament, by=owner)
    tournament.refresh_from_db()
    assert tournament.schedule["searches"] == SEARCHES
    # Another member of the club has searches of their own.
    other = make_member(tournament.club, "other@example.com", "Other")
    services.tournament_schedule_search(tournament=tournament, by=other)
    # An hour after the first, the owner may search again.
    CostlyAction.objects.filter(user=owner).update(at=dt.datetime(2000, 1, 1, tzinfo=dt.UTC))
    services.tournament_schedule_search(tournament=tournament, by=owner)
    assert CostlyAction.objects.filter(user=owner).count() == 1  # the old ones are gone


def test_the_search_page_says_the_limit_and_searches_nothing(
    cheap_searches: None, client: Client
) -> None:
    _club, _players, tournament = make_tournament(8, rounds=3)
    member = make_member(tournament.club, "member@example.com", "Member")
    client.force_login(member)
    url = reverse("tournament_schedule_search", args=[tournament.pk])
    for _ in range(SEARCHES):
        client.post(url)
    response = client.post(url, follow=True, **EN)
    assert response.status_code == 200
    assert "You searched for a better seating too many times in the last hour" in response.text
    tournament.refresh_from_db()
    assert tournament.schedule["searches"] == SEARCHES
