"""The import preview says which evenings are already here and offers to skip them, and warns
about new names that look like a player's (different letters drawn alike)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.exchange import exports
from scorekeeper.exchange.import_preview import import_preview
from scorekeeper.exchange.lookalike import lookalikes, mixes_scripts
from scorekeeper.exchange.sheet_import import read_import
from scorekeeper.models import Evening, Season
from tests.scorekeeper.season_factories import hand_computed_season, make_world

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def half_here():
    """A season file of four evenings, of which the club still holds the first two."""
    world = make_world()
    evenings = hand_computed_season(world)
    text = exports.season_json(Season.objects.get(club=world.club, name="2025"))
    evenings["second"].delete()
    evenings["escopette"].delete()
    client = Client()
    client.force_login(world.owner)
    return world, text, client


def post(client: Client, club_id: int, text: str, **extra: str):
    url = reverse("club_import", args=[club_id])
    return client.post(url, {"import-text": text, **extra}, **EN)


def test_the_preview_names_the_evenings_already_here_in_the_readers_format(half_here) -> None:
    world, text, client = half_here
    page = post(client, world.club.pk, text).content.decode()
    assert 'id="preview-already-here"' in page
    assert "Jan. 10, 2025" in page  # the reader's date format, not 2025-01-10
    assert 'value="skip"' in page and "Skip them and import the rest" in page
    assert ">Import</button>" not in page  # no button that can only fail


def test_skipping_them_imports_the_rest(half_here) -> None:
    world, text, client = half_here
    before = Evening.objects.filter(club=world.club).count()
    answer = post(client, world.club.pk, text, **{"import-confirm": "skip"})
    assert answer.status_code == 302
    assert Evening.objects.filter(club=world.club).count() == before + 2


def test_a_file_wholly_here_offers_no_import(half_here) -> None:
    world, _text, client = half_here
    text = exports.evening_json(Evening.objects.filter(club=world.club).order_by("date").last())
    page = post(client, world.club.pk, text, **{"import-date": "2025-01-10"}).content.decode()
    assert 'id="preview-already-here"' in page
    assert 'value="skip"' not in page and ">Import</button>" not in page


def test_a_new_name_that_looks_like_a_player_is_pointed_out(half_here) -> None:
    world, text, client = half_here
    lookalike = text.replace('"Ana"', '"\u0410na"')  # a Cyrillic А
    entries = read_import(lookalike)
    preview = import_preview(club=world.club, entries=entries, skip_existing=True)
    assert preview.new_players == ["\u0410na"]
    assert preview.lookalikes == [("\u0410na", "Ana")]
    assert preview.mixed_scripts == ["\u0410na"]
    page = post(client, world.club.pk, lookalike, **{"import-skip_existing": "on"}).content.decode()
    assert 'id="preview-lookalikes"' in page and 'looks like "Ana"' in page


def test_lookalikes_compare_letters_not_case_or_accents_already_matched() -> None:
    assert lookalikes(["ANA", "Zoé"], ["Ana", "Zoe"]) == []
    assert lookalikes(["Вen"], ["Ben"]) == [("Вen", "Ben")]
    assert not mixes_scripts("Анна") and not mixes_scripts("Zoé") and mixes_scripts("Zоé")
