"""The figures screen's URLs: what a club argues about, per season or all time (?season=…)."""

from __future__ import annotations

from django.urls import include, path

from scorekeeper.screens.figures import views

# Under clubs/<id:club_id>/
club_urls = [
    path("ratings/", views.ratings, name="figures_ratings"),
    path("head-to-head/", views.head_to_head, name="figures_head_to_head"),
    path("records/", views.records, name="figures_records"),
    path("contracts/", views.contracts, name="figures_contracts"),
]

urlpatterns = [path("clubs/<id:club_id>/", include(club_urls))]
