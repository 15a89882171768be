"""The live poll is a plain conditional GET in Django's stack: If-None-Match with the version
the page shows, 304 while it holds, the changed parts otherwise; and the access check comes
first, so that a phone that lost its access learns it at the next poll, never by a 304."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Evening
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import followed_table
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db

POLL = {"HTTP_HX_REQUEST": "true"}


def _save(game) -> None:
    seated = tuple(game.seats.order_by("position").values_list("player_id", flat=True))
    services.deal_record(
        game=game,
        inputs=TarotDeal(seated=seated, taker=seated[0], contract="garde", bouts=2, points=50),
    )


def _poll(client: Client, url: str, version: int, way: str = "header"):
    """A poll as the page sends it (If-None-Match), or as pages from before did (?version=)."""
    if way == "header":
        return client.get(url, {"since": ""}, HTTP_IF_NONE_MATCH=f'"{version}"', **POLL)
    return client.get(url, {"version": version, "since": ""}, **POLL)


def test_a_poll_naming_the_version_shown_is_answered_304_and_a_new_version_with_the_sheet(
    client: Client,
) -> None:
    _club, _players, member, evening, game = followed_table()
    client.force_login(member)
    url = reverse("evening_live", args=[evening.pk])
    first = client.get(url, {"since": ""}, **POLL)
    assert first.status_code == 200
    assert first["ETag"].strip("W/") == f'"{evening.version}"'
    assert _poll(client, url, evening.version).status_code == 304
    _save(game)
    answer = _poll(client, url, evening.version)
    new = Evening.objects.get(pk=evening.pk).version
    assert answer.status_code == 200 and f'data-version="{new}"' in answer.text
    assert _poll(client, url, new).status_code == 304


def test_the_shared_links_poll_is_answered_the_same_way(client: Client) -> None:
    _club, _players, _member, evening, game = followed_table()
    evening = services.share_link_create(evening=evening)
    url = reverse("evening_shared_live", args=[evening.share_token])
    assert _poll(client, url, evening.version).status_code == 304
    _save(game)
    assert _poll(client, url, evening.version).status_code == 200
    services.share_link_revoke(evening=Evening.objects.get(pk=evening.pk))
    assert _poll(client, url, Evening.objects.get(pk=evening.pk).version).status_code == 404


@pytest.mark.parametrize("way", ["header", "parameter"])
def test_a_removed_members_phone_is_refused_at_its_next_poll_not_304(
    client: Client, way: str
) -> None:
    club, _players, member, evening, _game = followed_table()
    client.force_login(member)
    url = reverse("evening_live", args=[evening.pk])
    assert client.get(url, {"since": ""}, **POLL).status_code == 200  # it followed the evening
    assert _poll(client, url, evening.version, way).status_code == 304
    services.member_remove(membership=club.memberships.get(user=member))
    assert _poll(client, url, evening.version, way).status_code == 403


@pytest.mark.parametrize("way", ["header", "parameter"])
def test_a_table_links_poll_gets_410_once_its_round_closes(client: Client, way: str) -> None:
    _club, _players, tournament = make_tournament(8, rounds=2, deals=2)
    owner = tournament.club.memberships.get(role="owner").user
    started = services.round_start(tournament=tournament, created_by=owner)
    table = started.tables.select_related("evening").first()
    client.get(reverse("tournament_table", args=[table.token]))  # the phone scans the card
    url = reverse("evening_live", args=[table.evening_id])
    version = Evening.objects.get(pk=table.evening_id).version
    assert client.get(url, {"since": ""}, **POLL).status_code == 200
    assert _poll(client, url, version, way).status_code == 304
    services.round_close(tournament_round=started, even_short=True)
    version = Evening.objects.get(pk=table.evening_id).version
    gone = _poll(client, url, version, way)
    assert gone.status_code == 410 and "round" in gone.text.lower()  # in words
