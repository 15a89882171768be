"""The season's standings draw again, after a save, only the players' rows that moved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.scoring.tarot import TarotDeal
from scorekeeper.templatetags import drawn_once
from tests.factories import make_club, start_evening


@pytest.mark.django_db
def test_after_a_save_the_standings_draw_only_the_rows_that_moved(client, monkeypatch) -> None:
    club, players = make_club(players=["Ana", "Ben", "Chloé", "Dan", "Eve"])
    evening, game = start_evening(club, players[:4])
    season = services.season_create(
        club=club, name="Saison", start=evening.date, end=evening.date.replace(month=12, day=31)
    )
    client.force_login(club.memberships.get(role="owner").user)
    ids = tuple(player.pk for player in players[:4])

    def deal(taker: int) -> None:
        services.deal_record(
            game=game,
            inputs=TarotDeal(seated=ids, taker=ids[taker], contract="garde", bouts=2, points=50),
        )

    deal(0)
    url = reverse("season", args=[club.pk, season.pk])
    assert client.get(url).status_code == 200
    drawn: list[object] = []
    keep = drawn_once._memos.set
    monkeypatch.setattr(
        drawn_once._memos, "set", lambda key, value: (drawn.append(key[1]), keep(key, value))
    )
    deal(0)  # Ana's and the others' totals move: each of their rows is drawn again
    assert client.get(url).status_code == 200
    assert drawn.count(repr("standing")) == 4
    drawn.clear()
    assert client.get(url).status_code == 200  # nothing moved: nothing drawn
    assert drawn == []
