"""Whatever the app stores, its archive restores: names and dates through every way in (the
forms, a tournament's guests, a CSV import, the admin) follow one rule (``scoring.inputs``),
so the club's own archive is never refused."""

from __future__ import annotations

import datetime as dt
import unicodedata

import pytest
from django import forms
from django.contrib import admin
from django.test import Client, RequestFactory
from django.urls import reverse

from scorekeeper import services
from scorekeeper.exchange import archive_read, archive_write, exports
from scorekeeper.models import Club, Evening, Player, Season, Tournament
from scorekeeper.scoring.errors import ScoringError
from tests.scorekeeper.season_factories import deal, make_world, play_evening

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
NFD = "NFD"
BAD_NAMES = ("Bob\u0007", "Eve\u200b", "\u202eevil", "Zoé\u200d")
BAD_DATES = ("0001-01-01", "9999-12-31", "1899-12-31", "3000-01-01")


def _nfd(text: str) -> str:
    return unicodedata.normalize(NFD, text)


def _admin_form(model: type, fields: list[str]) -> type[forms.ModelForm]:
    """The admin's own form of ``model``, limited to ``fields``."""
    return forms.modelform_factory(model, form=admin.site._registry[model].form, fields=fields)


def _stored_text(club: Club) -> list[str]:
    names = list(Player.objects.filter(club=club).values_list("name", flat=True))
    for tournament in Tournament.objects.filter(club=club):
        names += [tournament.name, tournament.place]
    names += list(Season.objects.filter(club=club).values_list("name", flat=True))
    names += list(Evening.objects.filter(club=club).values_list("place", flat=True))
    return names


def test_what_every_way_in_stores_the_clubs_archive_restores(client: Client) -> None:
    world = make_world(names=("Ana", "Ben", "Chloé", "Dan"))
    club = world.club
    client.force_login(world.owner)
    p = world.players

    # The club page: a player typed in NFD with runs of spaces is one NFC player.
    client.post(reverse("player_add", args=[club.pk]), {"player-name": _nfd("  Zoé   Noor ")})
    for bad in BAD_NAMES:
        page = client.post(reverse("player_add", args=[club.pk]), {"player-name": bad}, **EN)
        assert page.status_code == 200 and "invisible or control character" in page.content.decode()

    # Tournaments at the edges of the years, and none past them.
    url = reverse("tournaments", args=[club.pk])
    for date in ("1900-01-01", "2999-12-31"):
        fields = {"name": _nfd(f"Coupe  d'été {date}"), "date": date, "place": _nfd("Salle  Zoé")}
        fields |= {"rounds": "1", "deals_per_round": "1"}
        answer = client.post(url, {f"tournament-{k}": v for k, v in fields.items()})
        assert answer.status_code == 302
    for date in BAD_DATES:
        fields = {"name": "Trop tôt", "date": date, "rounds": "1", "deals_per_round": "1"}
        page = client.post(url, {f"tournament-{k}": v for k, v in fields.items()}, **EN)
        assert (
            page.status_code == 200 and "between the years 1900 and 2999" in page.content.decode()
        )
    for bad in BAD_NAMES:
        fields = {"name": bad, "date": "2025-01-01", "rounds": "1", "deals_per_round": "1"}
        page = client.post(url, {f"tournament-{k}": v for k, v in fields.items()}, **EN)
        assert page.status_code == 200
    tournament = Tournament.objects.get(club=club, date=dt.date(1900, 1, 1))

    # Guests: a new name in NFD; Zoé in the other form is the player already there.
    players_url = reverse("tournament_players", args=[tournament.pk])
    client.post(players_url, {"register-guest_name": _nfd("Léa")})
    page = client.post(players_url, {"register-guest_name": "zoé noor"}, **EN)
    assert "already a player of the club" in page.content.decode()
    for bad in BAD_NAMES:
        page = client.post(players_url, {"register-guest_name": bad}, **EN)
        assert page.status_code == 200 and "invisible or control character" in page.content.decode()

    # A season, and an evening's place.
    season_url = reverse("season_create", args=[club.pk])
    client.post(
        season_url,
        {
            "season-name": _nfd("Été  1900"),
            "season-start": "1900-01-01",
            "season-end": "1900-12-31",
        },
    )
    page = client.post(
        season_url,
        {"season-name": "Long", "season-start": "0001-01-01", "season-end": "1900-12-31"},
    )
    assert page.status_code == 200
    table = [p["Ana"], p["Ben"], p["Chloé"], p["Dan"]]
    play_evening(world, dt.date(2025, 1, 10), table, [], place=_nfd("Chez  Zoé"))
    with pytest.raises(ScoringError):
        play_evening(world, dt.date(2025, 1, 11), table, [], place="Cave\u202e")

    # A CSV import naming a new player in NFD.
    played = play_evening(
        world, dt.date(2025, 2, 1), table, [deal(table, p["Ben"], "garde", 2, 51)]
    )
    text = exports.evening_csv(played).replace("Dan", _nfd("Renée"))
    answer = client.post(
        reverse("club_import", args=[club.pk]),
        {"import-text": text, "import-date": "2999-12-31", "import-confirm": "1"},
    )
    assert answer.status_code == 302

    # The admin: a player and a tournament, by the same rules.
    player_form = _admin_form(Player, ["club", "name", "retired", "created_at"])
    form = player_form({"club": club.pk, "name": _nfd("Anaïs"), "created_at": "2025-01-01 10:00"})
    assert form.is_valid(), form.errors
    form.save()
    for bad in BAD_NAMES:
        form = player_form({"club": club.pk, "name": bad, "created_at": "2025-01-01 10:00"})
        assert not form.is_valid() and "name" in form.errors
    # What the pages read (tournaments, evenings, seasons) is read-only in the admin: nothing
    # comes in there that the rules have not seen.
    request = RequestFactory().get("/")
    request.user = club.memberships.get(role="owner").user
    for model in (Tournament, Evening, Season):
        assert not admin.site._registry[model].has_add_permission(request)
        assert not admin.site._registry[model].has_change_permission(request)

    stored = _stored_text(club)
    assert all(text == unicodedata.normalize("NFC", text) for text in stored)
    assert not any(unicodedata.category(char) in ("Cc", "Cf") for text in stored for char in text)
    names = set(Player.objects.filter(club=club).values_list("name", flat=True))
    assert {"Zoé Noor", "Léa", "Renée", "Anaïs"} <= names
    assert "Coupe d'été 1900-01-01" in stored and "Été 1900" in stored

    # The club's own archive restores, whole.
    archive = archive_read.read_archive(archive_write.dump_archive(club))
    restored = services.archive_import(archive=archive, owner=world.owner, restore_members=False)
    assert set(Player.objects.filter(club=restored).values_list("name", flat=True)) == names
    assert sorted(Tournament.objects.filter(club=restored).values_list("date", flat=True)) == [
        dt.date(1900, 1, 1),
        dt.date(2999, 12, 31),
    ]
