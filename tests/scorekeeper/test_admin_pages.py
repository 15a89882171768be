"""Every model of the main app has an admin, and its pages load for a superuser."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib import admin
from django.db import models
from django.test import Client
from django.urls import reverse

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import (
    Deal,
    DealScore,
    DeletedDeal,
    Evening,
    Game,
    Invitation,
    Membership,
    Seat,
)
from scorekeeper.reads.club_figures import club_figures
from scorekeeper.scoring.tarot import TarotDeal
from tests.scorekeeper.season_factories import season_stats_by_kind

pytestmark = pytest.mark.django_db

MODELS = list(apps.get_app_config("scorekeeper").get_models())


@pytest.fixture
def one_of_each() -> None:
    """A club with an invitation, an evening, a game, its seats and deals, a deleted deal."""
    ana = User.objects.create_user("ana@example.com", display_name="Ana")
    club = services.club_create(name="Les Excuses", owner=ana)
    invitation = services.invitation_create(club=club, email="dan@example.com", invited_by=ana)
    services.invitation_mail_send(
        invitation=invitation, invited_by=ana, language="fr", base_url="http://testserver/"
    )
    services.join_link_create(club=club, created_by=ana)
    ben = User.objects.create_user("ben@example.com", display_name="Ben")
    services.member_remove(membership=Membership.objects.create(club=club, user=ben))
    services.archive_upload_count(user=ana)
    services.archive_wait(user=ana, compact=b'{"format": "scorekeeper-club-archive"}')
    players = [services.player_add(club=club, name=name) for name in ("A", "B", "C", "D")]
    evening = services.evening_start(
        club=club, players=players, first_dealer=players[0], created_by=ana
    )
    game = evening.games.get()
    seated = tuple(player.pk for player in players)
    for _ in range(2):
        services.deal_record(
            game=game,
            inputs=TarotDeal(
                seated=seated, taker=players[1].pk, contract="garde", bouts=2, points=Decimal(45)
            ),
            created_by=ana,
        )
    services.deal_delete(deal=game.deals.last(), deleted_by=ana)
    last_week = services.evening_start(
        club=club,
        players=players,
        first_dealer=players[0],
        created_by=ana,
        date=evening.date - dt.timedelta(days=7),
    )
    services.deal_record(
        game=last_week.games.get(),
        inputs=TarotDeal(
            seated=seated, taker=players[2].pk, contract="petite", bouts=1, points=Decimal(50)
        ),
        created_by=ana,
    )
    season_stats_by_kind(club)
    _ = club_figures(club.pk).state  # folded (a checkpoint of last week's evening)
    tournament = services.tournament_create(
        club=club, created_by=ana, name="Excuses cup", rounds=1, deals_per_round=2
    )
    for player in players:
        services.tournament_register(tournament=tournament, player=player)
    services.tournament_schedule_search(tournament=tournament, by=ana)  # a SeatingSearch
    services.round_start(tournament=tournament, created_by=ana)
    for model in MODELS:  # a model added later needs a row here too
        assert model._default_manager.exists(), f"add a {model.__name__} to this fixture"


@pytest.fixture
def staff(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("root@example.com", display_name="Root"))
    return client


def test_every_model_of_the_main_app_has_an_admin() -> None:
    assert {Invitation, Evening, Game, Seat, Deal, DealScore, DeletedDeal} <= set(MODELS)
    assert [model for model in MODELS if not admin.site.is_registered(model)] == []


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_the_changelist_and_the_change_page_load(
    staff: Client, one_of_each: None, model: type[models.Model]
) -> None:
    meta = model._meta
    changelist = staff.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
    assert changelist.status_code == 200
    instance = model._default_manager.first()
    assert instance is not None
    change = staff.get(
        reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[instance.pk])
    )
    assert change.status_code == 200


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
def test_the_search_of_each_changelist_works(
    staff: Client, one_of_each: None, model: type[models.Model]
) -> None:
    meta = model._meta
    url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
    assert staff.get(url, {"q": "Excuses"}).status_code == 200
