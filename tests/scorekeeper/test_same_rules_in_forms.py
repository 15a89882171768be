"""The forms follow the rules every import follows (scoring.inputs): one validation."""

from __future__ import annotations

import datetime as dt
import unicodedata

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from scorekeeper.models import Player
from scorekeeper.screens.table.evening_forms import EveningStartForm
from tests.scorekeeper.season_factories import make_world

pytestmark = pytest.mark.django_db


def test_a_name_typed_in_nfd_is_the_nfc_player_already_there(client: Client) -> None:
    world = make_world(names=("Zoé",))
    client.force_login(world.owner)
    url = f"/clubs/{world.club.pk}/players/"
    client.post(url, {"player-name": unicodedata.normalize("NFD", "Zoé")})
    assert Player.objects.filter(club=world.club).count() == 1
    client.post(url, {"player-name": "  Léa   Noor "})
    assert Player.objects.filter(club=world.club, name="Léa Noor").exists()
    stored = Player.objects.get(club=world.club, name__startswith="L").name
    assert stored == unicodedata.normalize("NFC", stored)


def test_an_invisible_character_in_a_name_is_refused(client: Client) -> None:
    world = make_world(names=())
    client.force_login(world.owner)
    response = client.post(
        f"/clubs/{world.club.pk}/players/",
        {"player-name": "Zoé\u200b"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert not Player.objects.filter(club=world.club).exists()
    assert "invisible or control character (U+200B)" in response.content.decode()


def test_an_evening_date_outside_the_sane_years_is_refused() -> None:
    date, place = EveningStartForm.base_fields["date"], EveningStartForm.base_fields["place"]
    with pytest.raises(ValidationError):
        date.clean("0001-01-01")
    with pytest.raises(ValidationError):
        place.clean("Cave\u200b")
    assert place.clean("  La   Cave ") == "La Cave"
    assert date.clean("2025-01-01") == dt.date(2025, 1, 1)
