"""A correction of a paper deal is written in the deal's history with who made it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import DealChange
from scorekeeper.scoring.paper import PaperDeal
from tests.factories import make_club, make_user, start_evening

pytestmark = pytest.mark.django_db


def test_a_paper_deal_corrected_on_its_page_names_who_corrected_it() -> None:
    owner = make_user("tina@example.com", "Tina")
    club, players = make_club(owner, players=("Ana", "Ben", "Chloé", "Dan"))
    evening, game = start_evening(club, players)
    ids = [p.pk for p in players]
    deal = services.deal_record(
        game=game,
        inputs=PaperDeal(
            seated=tuple(ids), scores=dict(zip(ids, (90, -30, -30, -30), strict=True))
        ),
        created_by=owner,
    )
    client = Client()
    client.force_login(owner)
    form = {"paper-dealer": str(deal.dealer_id)}
    form.update(
        {
            f"paper-score_{pk}": str(score)
            for pk, score in zip(ids, (60, -20, -20, -20), strict=True)
        }
    )
    answer = client.post(reverse("paper_deal_edit", args=[evening.pk, deal.pk]), form)
    assert answer.status_code == 302
    change = DealChange.objects.get(deal=deal, action=DealChange.Action.CHANGED)
    assert change.by == owner
