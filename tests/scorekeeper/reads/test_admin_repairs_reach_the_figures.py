"""A staff repair in the admin bumps the evening's version: the stored season figures, the
sheets and the following phones see it (the figures are no longer only in a process's memory
that a restart would have emptied)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import DealScore, Evening
from scorekeeper.reads import standings
from scorekeeper.scoring.tarot import TarotDeal
from tests.factories import make_club, start_evening

pytestmark = pytest.mark.django_db


def test_a_score_corrected_in_the_admin_reaches_the_season_standings() -> None:
    club, players = make_club()
    evening, game = start_evening(club, players)
    seated = tuple(p.pk for p in players)
    deal = services.deal_record(
        game=game,
        inputs=TarotDeal(
            seated=seated, taker=seated[0], contract="garde", bouts=2, points=Decimal(45)
        ),
    )
    before = {row.player_id: row.total for row in standings.season_stats(club).rows}
    version = Evening.objects.get(pk=evening.pk).version
    score = DealScore.objects.get(deal=deal, player=players[1])
    staff = Client()
    staff.force_login(User.objects.create_superuser("root@example.com", display_name="Root"))
    response = staff.post(
        reverse("admin:scorekeeper_dealscore_change", args=[score.pk]),
        {"deal": deal.pk, "player": players[1].pk, "seated": "on", "score": score.score - 10},
    )
    assert response.status_code == 302
    assert Evening.objects.get(pk=evening.pk).version > version
    after = {row.player_id: row.total for row in standings.season_stats(club).rows}
    assert after[players[1].pk] == before[players[1].pk] - 10
