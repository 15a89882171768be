"""Crafted ids, query parameters and form values answer 404 or 400, never 500.

"²".isdigit() is True and int("²") raises; SQLite cannot hold an integer past 2**63 - 1;
PostgreSQL refuses NUL in text. Each case below was a 500 before.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scorekeeper import services
from scorekeeper.models import Game
from scorekeeper.scoring.escopette import STAKE_TRUMPS
from scorekeeper.scoring.tarot import PassedDeal
from scorekeeper.server.parsing import MAX_ID, parse_count, parse_id
from tests.factories import NAMES, make_club, start_evening

pytestmark = pytest.mark.django_db

BEYOND_64_BITS = str(2**63)


@pytest.mark.parametrize(
    "text", ["²", "٣", "¹²", "-1", "+1", " 1", "1 ", "1.0", "0", "", "0x1", BEYOND_64_BITS, "1\x00"]
)
def test_parse_id_refuses_anything_but_ascii_digits_of_a_64_bit_id(text: str) -> None:
    assert parse_id(text) is None


def test_parse_id_reads_ids_up_to_the_largest_big_integer() -> None:
    assert parse_id("1") == 1
    assert parse_id("0042") == 42
    assert parse_id(str(MAX_ID)) == MAX_ID
    assert parse_id(None) is None
    assert parse_count("0") == 0
    assert parse_count("²") is None


def test_no_url_pattern_uses_the_int_or_str_converters() -> None:
    """Ids go through <id:…> (64-bit, ASCII), tokens through <token:…> or <slug:…>."""

    def patterns(resolver, prefix=""):
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                if "admin" not in str(entry.pattern):
                    yield from patterns(entry, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                yield prefix + str(entry.pattern)

    offending = [p for p in patterns(get_resolver()) if "<int:" in p or "<str:" in p]
    assert offending == []


@pytest.fixture
def table(client: Client):
    club, players = make_club()
    owner = club.memberships.get().user
    evening, game = start_evening(club, players)
    ids = tuple(p.pk for p in players)
    services.deal_record(game=game, inputs=PassedDeal(seated=ids))
    client.force_login(owner)
    return client, club, evening, game, players


@pytest.mark.parametrize("value", ["²", BEYOND_64_BITS, "١"])
def test_crafted_query_parameters_are_never_a_500(table, value: str) -> None:
    client, club, evening, game, players = table
    for url in (
        reverse("evening", args=[evening.pk]) + f"?undo={value}",
        reverse("evening_live", args=[evening.pk]) + f"?undo={value}",
        reverse("player", args=[club.pk, players[0].pk]) + f"?season={value}",
        reverse("evening_export_json", args=[evening.pk]) + f"?game={value}",
    ):
        assert client.get(url).status_code in (200, 400, 404), url
    preview = reverse("deal_preview", args=[evening.pk, game.pk]) + f"?deal={value}"
    assert client.post(preview, {"deal-dealer": players[0].pk}).status_code in (400, 404)


@pytest.mark.parametrize(
    "path",
    [
        f"/clubs/{BEYOND_64_BITS}/",
        f"/evenings/{BEYOND_64_BITS}/",
        f"/evenings/{BEYOND_64_BITS}/live/",
        "/clubs/99999999999999999999999/",
        "/shared/%00/",
        "/shared/%00/live/",
        "/shared/a%00b/",
    ],
)
def test_crafted_paths_are_a_404_or_a_400(table, path: str) -> None:
    client = table[0]
    assert client.get(path).status_code in (400, 404)


def test_a_nul_in_the_path_is_a_400_and_in_the_query_string_no_500(table) -> None:
    client, _club, evening, *_ = table
    url = reverse("evening", args=[evening.pk])
    assert client.get("/clubs/1%00/").status_code == 400
    assert client.get(url + "?undo=1%00").status_code == 200
    # A deal's answers in the address are never kept there: back to the evening's own address.
    response = client.get(url, {"deal-contract": "a\x00", "version": "\x00"})
    assert (response.status_code, response["Location"]) == (302, url)


def test_a_crafted_stake_on_an_escopette_deal_is_refused_with_the_form(client: Client) -> None:
    club, players = make_club(players=NAMES[:4])
    owner = club.memberships.get().user
    evening = services.evening_start(
        club=club,
        players=players,
        first_dealer=players[0],
        created_by=owner,
        kind=Game.Kind.ESCOPETTE,
        target=50,
    )
    client.force_login(owner)
    game = evening.games.get()
    data = {"deal-dealer": players[0].pk, "deal-stake_1": "²"}
    data.update({f"deal-stake_{s}": players[0].pk for s in STAKE_TRUMPS if s != 1})
    for name in ("deal_create", "deal_preview"):
        response = client.post(reverse(name, args=[evening.pk, game.pk]), data)
        assert response.status_code in (200, 400, 422), name
    assert not game.deals.exists()


def test_a_next_that_is_not_a_path_is_ignored_not_reversed(client: Client) -> None:
    """redirect("²") would look for a URL named "²" and raise."""
    club, _players = make_club()
    client.force_login(club.memberships.get().user)
    for crafted in ("²", "home", "évening"):
        response = client.post(f"/welcome/?next={crafted}", {"display_name": "Ana"})
        assert response.status_code == 302
        assert response["Location"] == "/"
