"""The tournament pages' addresses, included once from ``scorekeeper.urls``."""

from __future__ import annotations

from django.urls import path

from scorekeeper.screens.tournaments import fix_views, public_views, views

urlpatterns = [
    path("clubs/<id:club_id>/tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<id:tournament_id>/", views.tournament_detail, name="tournament"),
    path(
        "tournaments/<id:tournament_id>/players/",
        views.tournament_players,
        name="tournament_players",
    ),
    path(
        "tournaments/<id:tournament_id>/players/<id:entrant_id>/withdraw/",
        views.tournament_withdraw,
        name="tournament_withdraw",
    ),
    path("tournaments/<id:tournament_id>/rounds/", views.round_start, name="round_start"),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:number>/close/",
        views.round_close,
        name="round_close",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:number>/cards/",
        views.round_cards,
        name="tournament_cards",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:number>/seats/",
        views.round_seats,
        name="tournament_seats",
    ),
    path("tournaments/<id:tournament_id>/cases/", views.case_labels, name="tournament_cases"),
    path(
        "tournaments/<id:tournament_id>/results/",
        views.tournament_results,
        name="tournament_results",
    ),
    path(
        "tournaments/<id:tournament_id>/public-link/",
        views.tournament_public_link,
        name="tournament_public_link",
    ),
    path(
        "tournaments/<id:tournament_id>/results.csv",
        views.tournament_csv,
        name="tournament_csv",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:number>/tables/<id:table>/",
        fix_views.table_deals,
        name="tournament_table_deals",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:number>/tables/<id:table>/deals/<id:deal_id>/",
        fix_views.table_deal_correct,
        name="tournament_deal_correct",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:number>/tables/<id:table>/deals/new/",
        fix_views.table_deal_add,
        name="tournament_deal_add",
    ),
    path(
        "tournaments/<id:tournament_id>/rounds/<id:number>/tables/<id:table>/allow-more/",
        fix_views.table_allow_more,
        name="tournament_allow_more",
    ),
    path(
        "tournaments/<id:tournament_id>/seating/search/",
        fix_views.schedule_search,
        name="tournament_schedule_search",
    ),
    path("t/<token:token>/", public_views.table_link, name="tournament_table"),
    path("ranking/<token:token>/", public_views.tournament_public, name="tournament_public"),
]
