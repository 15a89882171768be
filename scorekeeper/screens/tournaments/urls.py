"""The tournament pages' addresses, included once from ``scorekeeper.urls``."""

from __future__ import annotations

from django.urls import include, path

from scorekeeper.screens.tournaments import fix_views, public_views, views

# Under tournaments/<id:tournament_id>/rounds/<id:number>/tables/<id:table>/
table_urls = [
    path("", fix_views.table_deals, name="tournament_table_deals"),
    path("deals/<id:deal_id>/", fix_views.table_deal_correct, name="tournament_deal_correct"),
    path("deals/new/", fix_views.table_deal_add, name="tournament_deal_add"),
    path("allow-more/", fix_views.table_allow_more, name="tournament_allow_more"),
]

# Under tournaments/<id:tournament_id>/rounds/<id:number>/
round_urls = [
    path("close/", views.round_close, name="round_close"),
    path("cards/", views.round_cards, name="tournament_cards"),
    path("seats/", views.round_seats, name="tournament_seats"),
    path("tables/<id:table>/", include(table_urls)),
]

# Under tournaments/<id:tournament_id>/
tournament_urls = [
    path("", views.tournament_detail, name="tournament"),
    path("players/", views.tournament_players, name="tournament_players"),
    path(
        "players/<id:entrant_id>/withdraw/", views.tournament_withdraw, name="tournament_withdraw"
    ),
    path("rounds/", views.round_start, name="round_start"),
    path("rounds/<id:number>/", include(round_urls)),
    path("cases/", views.case_labels, name="tournament_cases"),
    path("results/", views.tournament_results, name="tournament_results"),
    path("public-link/", views.tournament_public_link, name="tournament_public_link"),
    path("results.csv", views.tournament_csv, name="tournament_csv"),
    path("seating/search/", fix_views.schedule_search, name="tournament_schedule_search"),
]

urlpatterns = [
    path("clubs/<id:club_id>/tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<id:tournament_id>/", include(tournament_urls)),
    path("t/<token:token>/", public_views.table_link, name="tournament_table"),
    path("ranking/<token:token>/", public_views.tournament_public, name="tournament_public"),
]
