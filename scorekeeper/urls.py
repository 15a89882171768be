from __future__ import annotations

from django.contrib import admin
from django.urls import include, path, register_converter

from scorekeeper.screens import home as views
from scorekeeper.screens.clubs import archive_views, join_views, rules_views
from scorekeeper.screens.clubs import views as club_views
from scorekeeper.screens.counter import views as counter_views
from scorekeeper.screens.install import views as pwa_views
from scorekeeper.screens.seasons import views as season_views
from scorekeeper.screens.table import evening_views, paper_views
from scorekeeper.screens.table import history_views as deal_history_views
from scorekeeper.server import health as health_views
from scorekeeper.server.parsing import IdConverter, TokenConverter

# Ids are 64-bit and ASCII digits, tokens URL-safe: anything else is a 404, never a 500.
register_converter(IdConverter, "id")
register_converter(TokenConverter, "token")

urlpatterns = [
    path("healthz", health_views.healthz, name="healthz"),
    path("", views.home, name="home"),
    # The installable app (issue 12): manifest, service worker at the root, offline page.
    path("manifest.webmanifest", pwa_views.manifest, name="manifest"),
    path("sw.js", pwa_views.service_worker, name="service_worker"),
    path("offline/", pwa_views.offline, name="offline"),
    path("favicon.ico", pwa_views.favicon, name="favicon"),
    path("counter/", counter_views.counter, name="counter"),
    path("clubs/new/", club_views.club_new, name="club_new"),
    path("clubs/restore/", archive_views.club_restore, name="club_restore"),
    path(
        "clubs/<id:club_id>/archive.json",
        archive_views.club_archive_download,
        name="club_archive",
    ),
    path("clubs/<id:club_id>/", club_views.club_detail, name="club"),
    path("clubs/<id:club_id>/rename/", club_views.club_rename, name="club_rename"),
    path("clubs/<id:club_id>/rules/", rules_views.club_rules, name="club_rules"),
    path("clubs/<id:club_id>/leave/", club_views.club_leave, name="club_leave"),
    path("clubs/<id:club_id>/invitations/", club_views.invitation_create, name="club_invite"),
    path(
        "clubs/<id:club_id>/invitations/<id:invitation_id>/withdraw/",
        club_views.invitation_withdraw,
        name="invitation_withdraw",
    ),
    path(
        "clubs/<id:club_id>/members/<id:membership_id>/remove/",
        club_views.member_remove,
        name="member_remove",
    ),
    path(
        "clubs/<id:club_id>/members/<id:membership_id>/make-owner/",
        club_views.member_make_owner,
        name="member_make_owner",
    ),
    path("clubs/<id:club_id>/join-link/", join_views.join_link_create, name="join_link_create"),
    path(
        "clubs/<id:club_id>/join-link/revoke/",
        join_views.join_link_revoke,
        name="join_link_revoke",
    ),
    path("join/<token:token>/", join_views.club_join, name="club_join"),
    path("clubs/<id:club_id>/players/", club_views.player_add, name="player_add"),
    path(
        "clubs/<id:club_id>/players/<id:player_id>/edit/",
        club_views.player_edit,
        name="player_edit",
    ),
    path(
        "clubs/<id:club_id>/players/<id:player_id>/retire/",
        club_views.player_retire,
        name="player_retire",
    ),
    path(
        "clubs/<id:club_id>/players/<id:player_id>/unretire/",
        club_views.player_unretire,
        name="player_unretire",
    ),
    # The table: evenings, games and deals.
    path("clubs/<id:club_id>/evenings/new/", evening_views.evening_new, name="evening_new"),
    path("evenings/<id:evening_id>/", evening_views.evening, name="evening"),
    path("evenings/<id:evening_id>/live/", evening_views.evening_live, name="evening_live"),
    path("evenings/<id:evening_id>/games/new/", evening_views.game_new, name="game_new"),
    path("rules/escopette/", evening_views.rules_escopette, name="rules_escopette"),
    path("evenings/<id:evening_id>/close/", evening_views.evening_close, name="evening_close"),
    path("evenings/<id:evening_id>/reopen/", evening_views.evening_reopen, name="evening_reopen"),
    path("evenings/<id:evening_id>/rescore/", rules_views.evening_rescore, name="evening_rescore"),
    path("evenings/<id:evening_id>/share/", evening_views.share_link_create, name="share_create"),
    path(
        "evenings/<id:evening_id>/share/revoke/",
        evening_views.share_link_revoke,
        name="share_revoke",
    ),
    path(
        "evenings/<id:evening_id>/games/<id:game_id>/deals/",
        evening_views.deal_create,
        name="deal_create",
    ),
    path(
        "evenings/<id:evening_id>/games/<id:game_id>/deals/preview/",
        evening_views.deal_preview,
        name="deal_preview",
    ),
    path(
        "evenings/<id:evening_id>/games/<id:game_id>/seats/",
        evening_views.seat_join,
        name="seat_join",
    ),
    path(
        "evenings/<id:evening_id>/games/<id:game_id>/seats/<id:player_id>/leave/",
        evening_views.seat_leave,
        name="seat_leave",
    ),
    path(
        "evenings/<id:evening_id>/deals/<id:deal_id>/edit/",
        evening_views.deal_edit,
        name="deal_edit",
    ),
    path(
        "evenings/<id:evening_id>/deals/<id:deal_id>/delete/",
        evening_views.deal_delete,
        name="deal_delete",
    ),
    path(
        "evenings/<id:evening_id>/undo/<id:deleted_id>/",
        evening_views.deal_restore,
        name="deal_restore",
    ),
    path(
        "evenings/<id:evening_id>/deleted/",
        deal_history_views.deleted_deals_page,
        name="deleted_deals",
    ),
    path(
        "evenings/<id:evening_id>/deleted/restore-all/",
        deal_history_views.deals_restore_all,
        name="deals_restore_all",
    ),
    path("shared/<token:token>/", evening_views.evening_shared, name="evening_shared"),
    path(
        "shared/<token:token>/live/", evening_views.evening_shared_live, name="evening_shared_live"
    ),
    # Seasons: standings, players' pages, exports and imports (issue 6).
    path("clubs/<id:club_id>/seasons/", season_views.season_list, name="seasons"),
    path("clubs/<id:club_id>/seasons/new/", season_views.season_create, name="season_create"),
    path(
        "clubs/<id:club_id>/seasons/<id:season_id>/",
        season_views.season_detail,
        name="season",
    ),
    path(
        "clubs/<id:club_id>/seasons/<id:season_id>/export.csv",
        season_views.season_export_csv,
        name="season_export_csv",
    ),
    path(
        "clubs/<id:club_id>/seasons/<id:season_id>/export.json",
        season_views.season_export_json,
        name="season_export_json",
    ),
    path(
        "clubs/<id:club_id>/players/<id:player_id>/",
        season_views.player_detail,
        name="player",
    ),
    path("clubs/<id:club_id>/import/", season_views.club_import, name="club_import"),
    path(
        "evenings/<id:evening_id>/games/<id:game_id>/paper/",
        paper_views.paper_deal_new,
        name="paper_deal_new",
    ),
    path(
        "evenings/<id:evening_id>/deals/<id:deal_id>/paper/",
        paper_views.paper_deal_edit,
        name="paper_deal_edit",
    ),
    path(
        "clubs/<id:club_id>/import/template.csv",
        season_views.import_template,
        name="import_template",
    ),
    path(
        "evenings/<id:evening_id>/export.csv",
        season_views.evening_export_csv,
        name="evening_export_csv",
    ),
    path(
        "evenings/<id:evening_id>/export.json",
        season_views.evening_export_json,
        name="evening_export_json",
    ),
    path("", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
