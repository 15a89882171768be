"""The clubs screen's URLs: a club, its members and players, joining, its archive, and its
house rules (the rules page, and the rescore of an open evening by them)."""

from __future__ import annotations

from django.urls import include, path

from scorekeeper.screens.clubs import archive_views, join_views, rules_views, views

# Under clubs/<id:club_id>/members/<id:membership_id>/
member_urls = [
    path("remove/", views.member_remove, name="member_remove"),
    path("make-owner/", views.member_make_owner, name="member_make_owner"),
]

# Under clubs/<id:club_id>/players/<id:player_id>/ (the player's own page is the seasons')
player_urls = [
    path("edit/", views.player_edit, name="player_edit"),
    path("retire/", views.player_retire, name="player_retire"),
    path("unretire/", views.player_unretire, name="player_unretire"),
]

# Under clubs/<id:club_id>/
club_urls = [
    path("", views.club_detail, name="club"),
    path("rename/", views.club_rename, name="club_rename"),
    path("leave/", views.club_leave, name="club_leave"),
    path("evening-points/", views.club_evening_points, name="club_evening_points"),
    path("rules/", rules_views.club_rules, name="club_rules"),
    path("archive.json", archive_views.club_archive_download, name="club_archive"),
    path("invitations/", views.invitation_create, name="club_invite"),
    path(
        "invitations/<id:invitation_id>/withdraw/",
        views.invitation_withdraw,
        name="invitation_withdraw",
    ),
    path("members/<id:membership_id>/", include(member_urls)),
    path("join-link/", join_views.join_link_create, name="join_link_create"),
    path("join-link/revoke/", join_views.join_link_revoke, name="join_link_revoke"),
    path("players/", views.player_add, name="player_add"),
    path("players/<id:player_id>/", include(player_urls)),
]

urlpatterns = [
    path("clubs/new/", views.club_new, name="club_new"),
    path("clubs/restore/", archive_views.club_restore, name="club_restore"),
    path("clubs/<id:club_id>/", include(club_urls)),
    path("join/<token:token>/", join_views.club_join, name="club_join"),
    path("evenings/<id:evening_id>/rescore/", rules_views.evening_rescore, name="evening_rescore"),
]
