"""A tournament's name and its tables' evenings: "name, round n, table t" always fits the
evening's place (80 characters), so a round is seated whatever the tournament is called."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper import services
from scorekeeper.models import Evening, Tournament
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.inputs import PLACE_MAX, TOURNAMENT_NAME_MAX
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db


def _owner(tournament: Tournament):
    return tournament.club.memberships.get(role="owner").user


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_a_tournament_named_at_the_longest_seats_its_first_round_with_the_whole_name(
    language: str,
) -> None:
    _club, _players, tournament = make_tournament(8, rounds=1)
    name = "N" * TOURNAMENT_NAME_MAX
    Tournament.objects.filter(pk=tournament.pk).update(name=name)
    tournament.refresh_from_db()
    with translation.override(language):
        started = services.round_start(tournament=tournament, created_by=_owner(tournament))
    places = list(Evening.objects.filter(tournament_table__round=started).values_list("place"))
    assert len(places) == 2
    assert all(place.startswith(name + ", ") and len(place) <= PLACE_MAX for (place,) in places)


def test_a_longer_name_stored_before_the_rule_is_shortened_in_the_tables_places() -> None:
    _club, _players, tournament = make_tournament(8, rounds=1)
    Tournament.objects.filter(pk=tournament.pk).update(name="L" * 80)
    tournament.refresh_from_db()
    with translation.override("en"):
        started = services.round_start(tournament=tournament, created_by=_owner(tournament))
    places = sorted(
        Evening.objects.filter(tournament_table__round=started).values_list("place", flat=True)
    )
    assert all(len(place) <= PLACE_MAX for place in places)
    assert places[0].endswith("…, round 1, table 1") and places[0].startswith("LLLL")


def test_the_service_refuses_a_tournament_name_past_the_limit() -> None:
    club, _players, tournament = make_tournament(4, rounds=1)
    with pytest.raises(ScoringError) as error:
        services.tournament_create(
            club=club,
            created_by=_owner(tournament),
            name="x" * (TOURNAMENT_NAME_MAX + 1),
            rounds=1,
            deals_per_round=1,
        )
    assert error.value.code == "too_long"


def test_the_form_refuses_a_63_character_name_next_to_the_field(client: Client) -> None:
    club, _players, tournament = make_tournament(4, rounds=1)
    client.force_login(_owner(tournament))
    fields = {"name": "x" * 63, "date": "2025-06-01", "rounds": "1", "deals_per_round": "1"}
    page = client.post(
        reverse("tournaments", args=[club.pk]),
        {f"tournament-{key}": value for key, value in fields.items()},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert page.status_code == 200
    assert page.context["form"].errors["name"] == [f"{'x' * 63} is longer than 50 characters"]
    assert 'maxlength="50"' in page.content.decode()
    assert Tournament.objects.filter(club=club).count() == 1


def test_seating_a_tournament_whose_name_is_the_longest_stored_is_never_a_500(
    client: Client,
) -> None:
    _club, _players, tournament = make_tournament(8, rounds=1)
    Tournament.objects.filter(pk=tournament.pk).update(name="L" * 80)
    client.force_login(_owner(tournament))
    answer = client.post(reverse("round_start", args=[tournament.pk]))
    assert answer.status_code == 302
    assert Evening.objects.filter(tournament_table__round__tournament=tournament).count() == 2
