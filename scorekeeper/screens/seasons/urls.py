"""The seasons screen's URLs: seasons and their standings, players' pages, imports, exports."""

from __future__ import annotations

from django.urls import include, path

from scorekeeper.screens.seasons import export_views, import_views, views

# Under clubs/<id:club_id>/seasons/<id:season_id>/
season_urls = [
    path("", views.season_detail, name="season"),
    path("export.csv", export_views.season_export_csv, name="season_export_csv"),
    path("export.json", export_views.season_export_json, name="season_export_json"),
]

# Under clubs/<id:club_id>/
club_urls = [
    path("seasons/", views.season_list, name="seasons"),
    path("seasons/new/", views.season_create, name="season_create"),
    path("seasons/<id:season_id>/", include(season_urls)),
    path("players/<id:player_id>/", views.player_detail, name="player"),
    path("import/", import_views.club_import, name="club_import"),
    path("import/template.csv", import_views.import_template, name="import_template"),
]

# Under evenings/<id:evening_id>/
evening_urls = [
    path("export.csv", export_views.evening_export_csv, name="evening_export_csv"),
    path("export.json", export_views.evening_export_json, name="evening_export_json"),
]

urlpatterns = [
    path("clubs/<id:club_id>/", include(club_urls)),
    path("evenings/<id:evening_id>/", include(evening_urls)),
]
