"""The table's URLs: an evening, its games and seats, its deals, their history, sharing."""

from __future__ import annotations

from django.urls import include, path

from scorekeeper.screens.table import (
    deal_views,
    evening_events,
    evening_views,
    history_views,
    paper_views,
)

# Under evenings/<id:evening_id>/games/<id:game_id>/
game_urls = [
    path("deals/", deal_views.deal_create, name="deal_create"),
    path("deals/preview/", deal_views.deal_preview, name="deal_preview"),
    path("paper/", paper_views.paper_deal_new, name="paper_deal_new"),
    path("seats/", evening_views.seat_join, name="seat_join"),
    path("seats/<id:player_id>/leave/", evening_views.seat_leave, name="seat_leave"),
]

# Under evenings/<id:evening_id>/deals/<id:deal_id>/
deal_urls = [
    path("edit/", deal_views.deal_edit, name="deal_edit"),
    path("delete/", deal_views.deal_delete, name="deal_delete"),
    path("paper/", paper_views.paper_deal_edit, name="paper_deal_edit"),
]

# Under evenings/<id:evening_id>/
evening_urls = [
    path("", evening_views.evening, name="evening"),
    path("live/", evening_views.evening_live, name="evening_live"),
    path("events/", evening_events.evening_events, name="evening_events"),
    path("games/new/", evening_views.game_new, name="game_new"),
    path("games/<id:game_id>/", include(game_urls)),
    path("deals/<id:deal_id>/", include(deal_urls)),
    path("undo/<id:deleted_id>/", deal_views.deal_restore, name="deal_restore"),
    path("deleted/", history_views.deleted_deals_page, name="deleted_deals"),
    path("deleted/restore-all/", history_views.deals_restore_all, name="deals_restore_all"),
    path("close/", evening_views.evening_close, name="evening_close"),
    path("reopen/", evening_views.evening_reopen, name="evening_reopen"),
    path("share/", evening_views.share_link_create, name="share_create"),
    path("share/revoke/", evening_views.share_link_revoke, name="share_revoke"),
]

# Under shared/<token:token>/ (the read-only link)
shared_urls = [
    path("", evening_views.evening_shared, name="evening_shared"),
    path("live/", evening_views.evening_shared_live, name="evening_shared_live"),
    path("events/", evening_events.evening_shared_events, name="evening_shared_events"),
]

urlpatterns = [
    path("clubs/<id:club_id>/evenings/new/", evening_views.evening_new, name="evening_new"),
    path("evenings/<id:evening_id>/", include(evening_urls)),
    path("shared/<token:token>/", include(shared_urls)),
    path("rules/escopette/", evening_views.rules_escopette, name="rules_escopette"),
]
