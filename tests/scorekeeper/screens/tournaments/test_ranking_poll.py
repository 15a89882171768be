"""The ranking's poll (the organiser's page and the public link) is a conditional GET: the
part sent every 4 s carries its tag in If-None-Match, and is answered 304 until the
ranking changes; access is checked first."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Tournament
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import make_member
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db

POLL = {"HTTP_HX_REQUEST": "true"}


def _playing() -> tuple[Tournament, object]:
    _club, _players, tournament = make_tournament(8, rounds=2, deals=2)
    owner = tournament.club.memberships.get(role="owner").user
    started = services.round_start(tournament=tournament, created_by=owner)
    return tournament, started.tables.select_related("game").first()


def _tag(page_text: str) -> str:
    """The tag the page's poll sends (its hx-headers)."""
    return re.search(r'"If-None-Match": "\\"(\w+)\\""', page_text).group(1)


def _deal_at(table) -> None:
    seated = tuple(table.game.seats.order_by("position").values_list("player_id", flat=True))
    services.deal_record(
        game=table.game,
        inputs=TarotDeal(seated=seated, taker=seated[0], contract="garde", bouts=2, points=50),
    )


@pytest.mark.parametrize("page", ["tournament", "tournament_public"])
def test_the_rankings_poll_is_304_until_a_deal_changes_it(client: Client, page: str) -> None:
    tournament, table = _playing()
    client.force_login(tournament.club.memberships.get(role="owner").user)
    url = reverse(page, args=[tournament.pk if page == "tournament" else tournament.public_token])
    tag = _tag(client.get(url).text)
    unchanged = client.get(url, HTTP_IF_NONE_MATCH=f'"{tag}"', **POLL)
    assert unchanged.status_code == 304 and unchanged.content == b""
    _deal_at(table)
    part = client.get(url, HTTP_IF_NONE_MATCH=f'"{tag}"', **POLL)
    assert part.status_code == 200 and part.text.lstrip().startswith('<div id="tournament-live"')
    new = _tag(part.text)
    assert new != tag and part["ETag"].strip("W/") == f'"{new}"'
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"{new}"', **POLL).status_code == 304


def test_a_removed_members_ranking_poll_is_refused_not_304(client: Client) -> None:
    tournament, _table = _playing()
    member = make_member(tournament.club)
    client.force_login(member)
    url = reverse("tournament", args=[tournament.pk])
    tag = _tag(client.get(url).text)
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"{tag}"', **POLL).status_code == 304
    services.member_remove(membership=tournament.club.memberships.get(user=member))
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"{tag}"', **POLL).status_code == 403
