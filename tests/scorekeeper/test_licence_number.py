"""A player's federation licence number: optional, letters and digits, at most 20; set on
the player's page; shown in the tournament's results and carried by its CSV and the club
archive (written and read back), so that a club can copy its results to the federation."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.exchange import archive_read, archive_write
from scorekeeper.exchange.csv_format import BOM
from scorekeeper.models import Player
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.inputs import clean_licence
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.mark.parametrize(
    ("typed", "kept"), [("", ""), ("  ", ""), ("07-123 456", "07123456"), ("ab12.c", "AB12C")]
)
def test_a_licence_number_is_letters_and_digits_in_capitals(typed: str, kept: str) -> None:
    assert clean_licence(typed) == kept


@pytest.mark.parametrize("typed", ["12/34", "Zoé1", "1" * 21, "=1+1"])
def test_anything_else_is_refused(typed: str) -> None:
    with pytest.raises(ScoringError):
        clean_licence(typed)


def _club_with_licence():
    club, players, tournament = make_tournament(4, rounds=1, deals=1)
    owner = tournament.club.memberships.get(role="owner").user
    return club, players, tournament, owner


def test_the_players_page_sets_it_and_refuses_a_bad_one_next_to_the_field(client: Client) -> None:
    club, players, _tournament, owner = _club_with_licence()
    client.force_login(owner)
    url = reverse("player_edit", args=[club.pk, players[0].pk])
    assert 'name="licence"' in client.get(url, **EN).text
    bad = client.post(url, {"name": players[0].name, "licence": "12/34"}, **EN)
    assert bad.status_code == 200 and "only letters and digits" in bad.text
    players[0].refresh_from_db()
    assert players[0].licence == ""
    client.post(url, {"name": players[0].name, "licence": "0712 3456"})
    players[0].refresh_from_db()
    assert players[0].licence == "07123456"


def test_the_results_and_their_csv_show_it(client: Client) -> None:
    _club, players, tournament, owner = _club_with_licence()
    services.round_start(tournament=tournament, created_by=owner)
    client.force_login(owner)
    before = client.get(reverse("tournament_results", args=[tournament.pk]), **EN).text
    services.player_update(player=players[0], name=players[0].name, user=None, licence="A123")
    results = client.get(reverse("tournament_results", args=[tournament.pk]), **EN).text
    assert "A123" not in before  # the cached ranking follows:
    cell = f'<th scope="row">{players[0].name} <span class="muted licence">licence A123</span></th>'
    assert cell in results
    answer = client.get(reverse("tournament_csv", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    rows = [line.split(";") for line in answer.content.decode().removeprefix(BOM).splitlines()]
    assert rows[0][:3] == ["Rang", "Joueur", "Licence"]
    by_name = {row[1]: row[2] for row in rows[1:]}
    assert by_name[players[0].name] == "A123" and by_name[players[1].name] == ""


def test_the_club_archive_carries_it_both_ways() -> None:
    club, players, _tournament, owner = _club_with_licence()
    Player.objects.filter(pk=players[0].pk).update(licence="FFT0042")
    text = archive_write.dump_archive(club)
    assert '"licence": "FFT0042"' in text
    copy = services.archive_import(
        archive=archive_read.read_archive(text), owner=owner, restore_members=False
    )
    assert copy.players.get(name=players[0].name).licence == "FFT0042"
    assert copy.players.get(name=players[1].name).licence == ""
    assert archive_write.dump_archive(copy).count('"licence"') == 1
