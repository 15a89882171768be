"""The club archive: everything a club owns, out and back in, identical (ids aside)."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

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
)
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.paper import PaperDeal
from tests.scorekeeper.season_factories import (
    World,
    deal,
    escopette_evening,
    hand_computed_season,
    make_world,
    passed,
    play_evening,
)

pytestmark = pytest.mark.django_db


def full_club() -> World:
    """Tarot and L'escopette, two seasons and a spring league, six at a table (the dealer
    sits out), a player who left the table, a retired player, a paper deal, an invitation."""
    world = make_world(names=("Ana", "Ben", "Chloé", "Dan", "Eve", "Zoé"))
    p = world.players
    hand_computed_season(world)
    services.season_create(
        club=world.club, name="Printemps", start=dt.date(2025, 3, 1), end=dt.date(2025, 5, 31)
    )
    six = [p["Ana"], p["Ben"], p["Chloé"], p["Dan"], p["Eve"], p["Zoé"]]
    evening = play_evening(
        world,
        dt.date(2024, 11, 8),
        six,
        [
            deal(six[1:], p["Ben"], "garde", 2, 45.5, partner=p["Dan"], poignees=("simple",)),
            passed([p["Ana"], *six[2:]]),
        ],
        place="Chez Zoé",
    )
    game = evening.games.get()
    services.evening_reopen(evening=evening)
    services.seat_leave(game=game, player=p["Zoé"])
    services.deal_record(
        game=game,
        inputs=PaperDeal(
            seated=(p["Ana"].pk, p["Ben"].pk, p["Chloé"].pk, p["Dan"].pk),
            scores={p["Ana"].pk: 90, p["Ben"].pk: -30, p["Chloé"].pk: -30, p["Dan"].pk: -30},
        ),
        dealer=p["Eve"],
    )
    services.deal_update(  # a correction: the deal's history says who changed what and how
        deal=game.deals.get(number=1),
        inputs=deal(six[1:], p["Ben"], "garde", 2, 51, partner=p["Dan"], poignees=("simple",)),
        changed_by=world.owner,
    )
    services.evening_close(evening=evening)
    escopette_evening(world, dt.date(2025, 4, 2), [p["Ana"], p["Ben"], p["Chloé"], p["Dan"]])
    services.player_retire(player=p["Eve"]) if hasattr(services, "player_retire") else None
    Player.objects.filter(pk=p["Eve"].pk).update(retired=True)
    Player.objects.filter(pk=p["Ana"].pk).update(user=world.owner)
    services.invitation_create(club=world.club, email="later@example.com", invited_by=world.owner)
    return world


def wipe() -> None:
    """An empty database: no club, no account."""
    for model in (DealChange, DealScore, Deal, Game, Evening, Season, Player, Membership, Club):
        model.objects.all().delete()
    User.objects.all().delete()


def test_an_archive_imported_into_an_empty_database_exports_the_same(tmp_path: Path) -> None:
    world = full_club()
    first = io.StringIO()
    call_command("export_club", world.club.pk, stdout=first)
    data = json.loads(first.getvalue())
    assert data["format"] == "scorekeeper-club-archive" and data["version"] == 1
    kinds = [g["kind"] for e in data["evenings"] for g in e["games"]]
    assert "tarot" in kinds and "escopette" in kinds
    assert len(data["seasons"]) == 3
    six = next(e for e in data["evenings"] if e["date"] == "2024-11-08")["games"][0]
    assert [s["player"] for s in six["seats"]][-1] == "Zoé"
    assert six["seats"][-1]["present"] is False
    assert six["deals"][0]["sitting_out"] == ["Ana"] and six["deals"][0]["dealer"] == "Ana"
    assert six["deals"][2]["scores"] == {"Ana": 90, "Ben": -30, "Chloé": -30, "Dan": -30}
    assert six["deals"][2]["absent"] == ["Zoé"]
    history = six["deals"][0]["history"]
    assert [entry["action"] for entry in history] == ["recorded", "changed"]
    assert history[1]["by"] == world.owner.email
    assert (history[1]["before"]["points"], history[1]["after"]["points"]) == ("45.5", "51.0")
    assert history[1]["after"]["taker"] == "Ben" and history[1]["after"]["partner"] == "Dan"
    assert {p["name"]: p["retired"] for p in data["players"]}["Eve"] is True
    assert {p["name"]: p["member"] for p in data["players"]}["Ana"] == world.owner.email
    path = tmp_path / "club.json"
    path.write_text(first.getvalue(), encoding="utf-8")

    wipe()
    out = io.StringIO()
    call_command("import_club", str(path), stdout=out)
    club = Club.objects.get()
    again = io.StringIO()
    call_command("export_club", club.pk, stdout=again)
    assert again.getvalue() == first.getvalue()
    assert club.memberships.get(role="owner").user.email == world.owner.email


def a_change(data: dict) -> dict:
    """The first history entry of the archive: the correction of the six-player deal."""
    for evening in data["evenings"]:
        for game in evening["games"]:
            for one in game["deals"]:
                for entry in one.get("history", []):
                    if entry["action"] == "changed":
                        return entry
    raise AssertionError("no correction in the archive")


def test_the_history_comes_back_on_the_deal_edit_page(client: Client) -> None:
    world = full_club()
    archive = archive_read.read_archive(archive_write.dump_archive(world.club))
    club = services.archive_import(archive=archive, owner=world.owner, restore_members=False)
    first = Deal.objects.get(game__evening__club=club, game__evening__date="2024-11-08", number=1)
    assert [c.action for c in first.changes.all()] == ["recorded", "changed"]
    client.force_login(world.owner)
    page = client.get(f"/evenings/{first.game.evening_id}/deals/{first.pk}/edit/")
    assert page.status_code == 200
    assert "45.5" in page.content.decode() and "51" in page.content.decode()


def test_an_archive_writes_in_a_few_queries_whatever_its_size() -> None:
    world = full_club()
    text = archive_write.dump_archive(world.club)
    archive = archive_read.read_archive(text)
    with CaptureQueriesContext(connection) as queries:
        services.archive_import(archive=archive, owner=world.member, restore_members=False)
    assert len(queries) < 80


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["players"][0].update(name="Ana\x00"), "players: 'Ana\\x00' holds"),
        (lambda d: d["evenings"][0].update(place="x" * 81), "evening 1: place:"),
        (lambda d: d["evenings"][0].update(date="0001-01-01"), "is not between the years"),
        (lambda d: d["players"].append({"name": "Zoe\u0301"}), "Zoé and Zoé are the same player"),
        (lambda d: d.update(version=7), "version: 7 is not a version"),
        (
            lambda d: d["seasons"].append(dict(d["seasons"][0])),
            "seasons: 2024-01-01 – 2024-12-31 is listed twice",
        ),
        (lambda d: d["members"].append(dict(d["members"][0])), "is listed twice"),
        (lambda d: d["members"][0].update(role="owner"), "members: a club has one owner"),
        (lambda d: d["invitations"].append(dict(d["invitations"][0])), "invitations: later@"),
        (lambda d: a_change(d).update(action="burned"), "'burned' is not a change of a deal"),
        (
            lambda d: a_change(d)["after"].update(taker="Nobody"),
            "Nobody is not one of the players",
        ),
        (lambda d: a_change(d)["after"].update(stakes={"x": "Ana"}), "is not a change of a deal"),
        (lambda d: a_change(d)["before"].update(points=[1]), "is not a change of a deal"),
        (
            lambda d: d["evenings"][1]["games"][0]["deals"][0].update(points=95),
            "evening 2, deal 1: points: 95 is more than 91",
        ),
    ],
)
def test_a_bad_archive_saves_nothing_and_says_where(change, expected) -> None:
    world = full_club()
    data = json.loads(archive_write.dump_archive(world.club))
    change(data)
    clubs = Club.objects.count()
    with pytest.raises(ScoringError) as caught:
        archive = archive_read.read_archive(json.dumps(data))
        services.archive_import(archive=archive, owner=world.owner, restore_members=False)
    with translation.override("en"):
        assert expected in archive_read.refusal_text(caught.value)
    assert Club.objects.count() == clubs


def test_the_owner_downloads_the_archive_and_uploads_it_as_a_new_club(client: Client) -> None:
    world = full_club()
    client.force_login(world.member)
    assert client.get(f"/clubs/{world.club.pk}/archive.json").status_code == 403
    client.force_login(world.owner)
    response = client.get(f"/clubs/{world.club.pk}/archive.json")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("club.json", response.content, "application/json")
    shown = client.post("/clubs/restore/", {"archive-file": upload}, HTTP_ACCEPT_LANGUAGE="en")
    page = shown.content.decode()
    assert 'id="restore-preview"' in page and "Les Bouts" in page
    assert Club.objects.count() == 1  # nothing written before the preview is confirmed
    token = page.split('name="archive-token" value="')[1].split('"')[0]
    other = Client()
    other.force_login(world.member)
    assert (
        "expired"
        in other.post(
            "/clubs/restore/", {"archive-token": token}, HTTP_ACCEPT_LANGUAGE="en"
        ).content.decode()
    )
    assert Club.objects.count() == 1
    answer = client.post("/clubs/restore/", {"archive-token": token})
    club = Club.objects.exclude(pk=world.club.pk).get()
    # The token is used up: confirming again leads to the club it made, and makes no other.
    again = client.post("/clubs/restore/", {"archive-token": token})
    assert again.status_code == 302 and again["Location"] == f"/clubs/{club.pk}/"
    assert Club.objects.count() == 2
    assert answer.status_code == 302 and answer["Location"] == f"/clubs/{club.pk}/"
    assert club.memberships.get().user == world.owner  # the owner invites the others again
    assert not club.invitations.exists()
    assert (
        Evening.objects.filter(club=club).count() == Evening.objects.filter(club=world.club).count()
    )
