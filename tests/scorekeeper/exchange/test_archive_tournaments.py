from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import User
from scorekeeper import services
from scorekeeper.exchange import archive_read, archive_write
from scorekeeper.models import (
    Club,
    Deal,
    DealChange,
    DealScore,
    Evening,
    Game,
    Membership,
    Player,
    Season,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from scorekeeper.reads.tournaments import ranking
from scorekeeper.scoring.errors import ScoringError
from tests.factories import deal_post
from tests.scorekeeper.tournament_factories import make_tournament

pytestmark = pytest.mark.django_db


def _played() -> Tournament:
    """8 players, round 1 played (a deal per table) and closed, round 2 seated."""
    _club, _players, tournament = make_tournament(8, rounds=2, deals=1)
    owner = tournament.club.memberships.get(role="owner").user
    client = Client()
    client.force_login(owner)
    first = services.round_start(tournament=tournament, created_by=owner)
    for table in first.tables.select_related("game"):
        seated = list(table.game.seats.order_by("position").values_list("player_id", flat=True))
        client.post(
            reverse("deal_create", args=[table.evening_id, table.game_id]),
            deal_post(
                dealer=table.game.first_dealer_id,
                taker=seated[0],
                contract="garde",
                bouts=2,
                points="49",
            ),
        )
    services.round_close(tournament_round=first, even_short=True)
    services.round_start(tournament=tournament, created_by=owner)
    return tournament


def _wipe() -> None:
    for model in (TournamentTable, TournamentRound, Tournament):
        model.objects.all().delete()
    for model in (DealChange, DealScore, Deal, Game, Evening, Season, Player, Membership, Club):
        model.objects.all().delete()
    User.objects.all().delete()


def test_a_restored_archive_keeps_the_tournament_and_exports_the_same(tmp_path: Path) -> None:
    tournament = _played()
    totals = [(row.name, row.total) for row in ranking(tournament).rows]
    first = io.StringIO()
    call_command("export_club", tournament.club_id, stdout=first)
    data = json.loads(first.getvalue())
    [archived] = data["tournaments"]
    assert [len(r["tables"]) for r in archived["played"]] == [2, 2]
    assert archived["played"][0]["closed_at"] and archived["played"][1]["closed_at"] is None
    assert len(archived["entrants"]) == 8 and len(archived["schedule"]["rounds"]) == 2
    table = archived["played"][0]["tables"][0]
    assert data["evenings"][table["evening"]]["games"][0]["deals"]
    path = tmp_path / "club.json"
    path.write_text(first.getvalue(), encoding="utf-8")

    _wipe()
    call_command("import_club", str(path), stdout=io.StringIO())
    restored = Tournament.objects.get()
    assert [(row.name, row.total) for row in ranking(restored).rows] == totals
    assert restored.tournament_rounds.count() == 2
    assert restored.state == Tournament.State.PLAYING
    again = io.StringIO()
    call_command("export_club", restored.club_id, stdout=again)
    assert again.getvalue() == first.getvalue()


def test_the_owners_upload_brings_the_tournament_into_the_new_club() -> None:
    tournament = _played()
    owner = tournament.club.memberships.get(role="owner").user
    archive = archive_read.read_archive(archive_write.dump_archive(tournament.club))
    club = services.archive_import(archive=archive, owner=owner, restore_members=False)
    copy = club.tournaments.get()
    assert copy.public_token != tournament.public_token
    assert {t.evening.club_id for t in TournamentTable.objects.filter(round__tournament=copy)} == {
        club.pk
    }
    assert [r.total for r in ranking(copy).rows] == [r.total for r in ranking(tournament).rows]


def test_an_archive_without_tournaments_reads_as_a_club_without_them() -> None:
    tournament = _played()
    data = json.loads(archive_write.dump_archive(tournament.club))
    del data["tournaments"]
    assert archive_read.read_archive(json.dumps(data)).tournaments == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda t: t["played"][0]["tables"][0].update(evening=999), "999 is far too large"),
        (
            lambda t: t["played"][0]["tables"][1].update(
                evening=t["played"][0]["tables"][0]["evening"]
            ),
            "appears twice",
        ),
        (lambda t: t["entrants"][0].update(player="Nobody"), "Nobody is not one of the players"),
        (lambda t: t.update(rounds=0), "0 is far too large"),
        (lambda t: t["schedule"]["rounds"][0][0].append("Nobody"), "Nobody is not one of"),
    ],
)
def test_a_bad_tournament_in_an_archive_is_refused_and_nothing_is_saved(change, expected) -> None:
    tournament = _played()
    data = json.loads(archive_write.dump_archive(tournament.club))
    change(data["tournaments"][0])
    clubs = Club.objects.count()
    with pytest.raises(ScoringError) as caught:
        archive_read.read_archive(json.dumps(data))
    assert expected in str(caught.value)
    assert Club.objects.count() == clubs
