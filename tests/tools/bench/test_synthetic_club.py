"""The benchmark's synthetic club: each series of saves starts from the evening as built."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from scorekeeper.models import Deal, Evening
from tools.bench.synthetic_club import build, deal_form, trim_tonight

pytestmark = pytest.mark.django_db


def test_the_open_evening_is_trimmed_back_to_the_deals_it_was_built_with() -> None:
    built = build(120)
    assert built.tonight_deals == 120 - 50  # two evenings: 50 deals, then the rest
    client = Client()
    client.force_login(User.objects.get(pk=built.user_id))
    url = reverse("deal_create", args=[built.evening_id, built.game_id])
    for _ in range(3):  # a series of saves, as the benchmark times them
        form = {**deal_form(built.present), "deal-idempotency_key": uuid.uuid4().hex}
        assert client.post(url, form).status_code == 302
    deals = Deal.objects.filter(game_id=built.game_id)
    assert deals.count() == built.tonight_deals + 3
    version = Evening.objects.get(pk=built.evening_id).version
    trim_tonight(built)
    numbers = sorted(deals.values_list("number", flat=True))
    assert numbers == list(range(1, built.tonight_deals + 1))
    assert Evening.objects.get(pk=built.evening_id).version > version  # the figures see it
    trim_tonight(built)  # nothing later: nothing deleted
    assert deals.count() == built.tonight_deals
