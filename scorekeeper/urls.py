from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from scorekeeper import (
    club_views,
    counter_views,
    evening_views,
    health_views,
    season_views,
    views,
)

urlpatterns = [
    path("healthz", health_views.healthz, name="healthz"),
    path("", views.home, name="home"),
    path("counter/", counter_views.counter, name="counter"),
    path("clubs/new/", club_views.club_new, name="club_new"),
    path("clubs/<int:club_id>/", club_views.club_detail, name="club"),
    path("clubs/<int:club_id>/rename/", club_views.club_rename, name="club_rename"),
    path("clubs/<int:club_id>/leave/", club_views.club_leave, name="club_leave"),
    path("clubs/<int:club_id>/invitations/", club_views.invitation_create, name="club_invite"),
    path(
        "clubs/<int:club_id>/invitations/<int:invitation_id>/withdraw/",
        club_views.invitation_withdraw,
        name="invitation_withdraw",
    ),
    path(
        "clubs/<int:club_id>/members/<int:membership_id>/remove/",
        club_views.member_remove,
        name="member_remove",
    ),
    path(
        "clubs/<int:club_id>/members/<int:membership_id>/make-owner/",
        club_views.member_make_owner,
        name="member_make_owner",
    ),
    path("clubs/<int:club_id>/players/", club_views.player_add, name="player_add"),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/edit/",
        club_views.player_edit,
        name="player_edit",
    ),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/retire/",
        club_views.player_retire,
        name="player_retire",
    ),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/unretire/",
        club_views.player_unretire,
        name="player_unretire",
    ),
    # The table: evenings, games and deals.
    path("clubs/<int:club_id>/evenings/new/", evening_views.evening_new, name="evening_new"),
    path("evenings/<int:evening_id>/", evening_views.evening, name="evening"),
    path("evenings/<int:evening_id>/live/", evening_views.evening_live, name="evening_live"),
    path("evenings/<int:evening_id>/games/new/", evening_views.game_new, name="game_new"),
    path("rules/escopette/", evening_views.rules_escopette, name="rules_escopette"),
    path("evenings/<int:evening_id>/close/", evening_views.evening_close, name="evening_close"),
    path("evenings/<int:evening_id>/reopen/", evening_views.evening_reopen, name="evening_reopen"),
    path("evenings/<int:evening_id>/share/", evening_views.share_link_create, name="share_create"),
    path(
        "evenings/<int:evening_id>/share/revoke/",
        evening_views.share_link_revoke,
        name="share_revoke",
    ),
    path(
        "evenings/<int:evening_id>/games/<int:game_id>/deals/",
        evening_views.deal_create,
        name="deal_create",
    ),
    path(
        "evenings/<int:evening_id>/games/<int:game_id>/deals/preview/",
        evening_views.deal_preview,
        name="deal_preview",
    ),
    path(
        "evenings/<int:evening_id>/games/<int:game_id>/seats/",
        evening_views.seat_join,
        name="seat_join",
    ),
    path(
        "evenings/<int:evening_id>/games/<int:game_id>/seats/<int:player_id>/leave/",
        evening_views.seat_leave,
        name="seat_leave",
    ),
    path(
        "evenings/<int:evening_id>/deals/<int:deal_id>/edit/",
        evening_views.deal_edit,
        name="deal_edit",
    ),
    path(
        "evenings/<int:evening_id>/deals/<int:deal_id>/delete/",
        evening_views.deal_delete,
        name="deal_delete",
    ),
    path(
        "evenings/<int:evening_id>/undo/<int:deleted_id>/",
        evening_views.deal_restore,
        name="deal_restore",
    ),
    path("shared/<str:token>/", evening_views.evening_shared, name="evening_shared"),
    path("shared/<str:token>/live/", evening_views.evening_shared_live, name="evening_shared_live"),
    # Seasons: standings, players' pages, exports and imports (issue 6).
    path("clubs/<int:club_id>/seasons/", season_views.season_list, name="seasons"),
    path("clubs/<int:club_id>/seasons/new/", season_views.season_create, name="season_create"),
    path(
        "clubs/<int:club_id>/seasons/<int:season_id>/",
        season_views.season_detail,
        name="season",
    ),
    path(
        "clubs/<int:club_id>/seasons/<int:season_id>/export.csv",
        season_views.season_export_csv,
        name="season_export_csv",
    ),
    path(
        "clubs/<int:club_id>/seasons/<int:season_id>/export.json",
        season_views.season_export_json,
        name="season_export_json",
    ),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/",
        season_views.player_detail,
        name="player",
    ),
    path("clubs/<int:club_id>/import/", season_views.club_import, name="club_import"),
    path(
        "evenings/<int:evening_id>/export.csv",
        season_views.evening_export_csv,
        name="evening_export_csv",
    ),
    path(
        "evenings/<int:evening_id>/export.json",
        season_views.evening_export_json,
        name="evening_export_json",
    ),
    path("", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
