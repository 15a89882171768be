"""The organiser ends the public ranking link (and may make a new one), as the evening's
read-only link; it worked for anyone, for ever, even after the tournament."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Tournament, TournamentTable
from tests.factories import make_member
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def finished() -> Tournament:
    """A tournament of one round, played and closed: it has ended."""
    _club, _players, tournament = make_tournament(8, rounds=1)
    started = services.round_start(tournament=tournament, created_by=tournament.created_by)
    services.round_close(tournament_round=started, even_short=True)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED
    return tournament


def public(token: str | None) -> int:
    return Client().get(reverse("tournament_public", args=[token]), **EN).status_code


def organiser(tournament: Tournament) -> Client:
    client = Client()
    client.force_login(tournament.created_by)
    return client


def test_the_organiser_revokes_the_public_link_after_the_tournament_and_it_ends() -> None:
    tournament = finished()
    token = tournament.public_token
    assert public(token) == 200
    client = organiser(tournament)
    page = client.get(reverse("tournament", args=[tournament.pk]), **EN)
    assert "Revoke the link" in page.text
    answer = client.post(
        reverse("tournament_public_link", args=[tournament.pk]), {"action": "revoke"}, **EN
    )
    assert answer.status_code == 302
    assert public(token) == 404
    tournament.refresh_from_db()
    assert tournament.public_token is None
    page = client.get(reverse("tournament", args=[tournament.pk]), **EN)
    assert "nobody outside the club can see it" in page.text and "/ranking/" not in page.text
    table = TournamentTable.objects.filter(round__tournament=tournament).first()
    closed = Client().get(reverse("tournament_table", args=[table.token]), **EN)
    assert closed.status_code == 410 and "/ranking/" not in closed.text


def test_a_new_link_works_and_the_one_before_does_not() -> None:
    _club, _players, tournament = make_tournament(8, rounds=2)
    old = tournament.public_token
    client = organiser(tournament)
    client.post(reverse("tournament_public_link", args=[tournament.pk]), {"action": "new"})
    tournament.refresh_from_db()
    assert tournament.public_token and tournament.public_token != old
    assert public(old) == 404 and public(tournament.public_token) == 200
    client.post(reverse("tournament_public_link", args=[tournament.pk]), {"action": "revoke"})
    client.post(reverse("tournament_public_link", args=[tournament.pk]), {"action": "new"})
    tournament.refresh_from_db()
    assert public(tournament.public_token) == 200


def test_only_the_organiser_or_the_owner_may_end_the_link() -> None:
    _club, _players, tournament = make_tournament(8, rounds=2)
    token = tournament.public_token
    member = Client()
    member.force_login(make_member(tournament.club, "ben@example.com", "Ben"))
    page = member.get(reverse("tournament", args=[tournament.pk]), **EN)
    assert page.status_code == 200 and "Revoke the link" not in page.text
    url = reverse("tournament_public_link", args=[tournament.pk])
    assert member.post(url, {"action": "revoke"}).status_code == 403
    assert Client().post(url, {"action": "revoke"}).status_code in {302, 404}  # signed out
    assert public(token) == 200
    assert organiser(tournament).get(url).status_code == 405
