"""The score sheet draws again only the rows that changed: every earlier row is kept as
drawn, under a key naming all it shows (a correction, a rename, a new language draw anew)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.templatetags import drawn_once
from tests.factories import deal_post, make_club, start_evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client: Client):
    drawn_once._drawn.clear()
    club, players = make_club()
    evening, game = start_evening(club, players)
    client.force_login(club.memberships.get(role="owner").user)
    return client, evening, game, players


@pytest.fixture
def drawn(monkeypatch) -> list[int]:
    """The deal numbers of the rows drawn (not taken from the kept ones)."""
    numbers: list[int] = []
    keep = drawn_once._drawn.set

    def counted(key, value):
        numbers.append(int(value.split('data-number="', 1)[1].split('"', 1)[0]))
        keep(key, value)

    monkeypatch.setattr(drawn_once._drawn, "set", counted)
    return numbers


def save(client: Client, evening, game, players, number: int, points: int = 50) -> None:
    response = client.post(
        reverse("deal_create", args=[evening.pk, game.pk]),
        deal_post(
            dealer=players[0].pk,
            taker=players[1].pk,
            contract="garde",
            bouts=2,
            points=points,
            number=number,
            idempotency_key=f"key-{number}",
        ),
    )
    assert response.status_code == 302


def page(client: Client, evening) -> str:
    return client.get(reverse("evening", args=[evening.pk])).text


def test_after_a_new_deal_only_its_row_is_drawn(table, drawn) -> None:
    client, evening, game, players = table
    for number in (1, 2, 3):
        save(client, evening, game, players, number)
    page(client, evening)
    drawn.clear()
    save(client, evening, game, players, 4)
    text = page(client, evening)
    assert drawn == [4]
    assert text.count('<tr id="deal-') == 4


def test_a_corrected_deal_draws_its_row_and_every_later_one_again(table, drawn) -> None:
    client, evening, game, players = table
    for number in (1, 2, 3):
        save(client, evening, game, players, number)
    before = page(client, evening)
    drawn.clear()
    deal = game.deals.get(number=2)
    form = client.get(reverse("deal_edit", args=[evening.pk, deal.pk])).context["form"]
    data = {f"deal-{name}": value for name, value in form.initial.items() if value is not None}
    data.update({"deal-points": 70, "deal-poignee_simple": 1})
    data = {k: v for k, v in data.items() if v not in ([], "")}
    assert client.post(reverse("deal_edit", args=[evening.pk, deal.pk]), data).status_code == 302
    after = page(client, evening)
    assert drawn == [2, 3]  # deal 1 is kept as drawn; 2 changed, 3's running totals moved
    assert after != before


def test_a_renamed_player_and_another_language_draw_the_rows_again(table, drawn) -> None:
    client, evening, game, players = table
    for number in (1, 2):
        save(client, evening, game, players, number)
    page(client, evening)
    drawn.clear()
    services.player_rename(player=players[1], name="Bérénice")
    assert "Bérénice" in page(client, evening)
    assert drawn == [1, 2]
    drawn.clear()
    client.cookies.load({"django_language": "ru"})
    page(client, evening)
    assert sorted(drawn) == [1, 2]
