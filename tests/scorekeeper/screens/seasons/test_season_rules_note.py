"""A season's standings say so when they add up evenings played by different rules."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Season
from scorekeeper.scoring.rules import HouseRules
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import make_club, start_evening

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _season_page(client: Client, club):
    season = Season.objects.get(club=club)
    client.force_login(club.memberships.get(role="owner").user)
    return client.get(reverse("season", args=[club.pk, season.pk]), **EN)


def _played(club, players) -> None:
    """An evening with a deal: the standings add up evenings with deals."""
    _evening, game = start_evening(club, players)
    ids = tuple(player.pk for player in players)
    services.deal_record(
        game=game, inputs=TarotDeal(seated=ids, taker=ids[0], contract="garde", bouts=2, points=50)
    )


def test_a_season_played_by_one_set_of_rules_has_no_note(client: Client) -> None:
    club, players = make_club()
    _played(club, players)
    _played(club, players)
    page = _season_page(client, club)
    assert "different rules" not in page.text
    assert len(page.context["rules_in_force"]) == 1


def test_a_season_that_mixes_rules_says_which_and_how_many_evenings(client: Client) -> None:
    club, players = make_club()
    _played(club, players)
    _played(club, players)
    services.club_rules_set(club=club, rules=HouseRules(misere=20))
    _played(club, players)
    start_evening(club, players)  # no deal: nothing in the standings, not counted
    page = _season_page(client, club)
    assert "These standings add up evenings played by different rules:" in page.text
    assert "FFT rules: 2 evenings" in page.text
    assert "House rules: misère 20: 1 evening" in page.text
