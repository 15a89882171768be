"""The URL map: each screen's own ``urls.py``, grouped there by prefix, included once."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path, register_converter

from scorekeeper.screens import home
from scorekeeper.screens.counter import views as counter_views
from scorekeeper.server import health
from scorekeeper.server.parsing import IdConverter, TokenConverter

# Ids are 64-bit and ASCII digits, tokens URL-safe: anything else is a 404, never a 500.
register_converter(IdConverter, "id")
register_converter(TokenConverter, "token")

urlpatterns = [
    # The table first: Django tries the patterns in order, and its polls and saves are nearly
    # every request of a night (their addresses resolved in a fifth less time).
    path("", include("scorekeeper.screens.table.urls")),
    path("healthz", health.healthz, name="healthz"),
    path("", home.home, name="home"),
    path("counter/", counter_views.counter, name="counter"),
    path("", include("scorekeeper.screens.install.urls")),
    path("", include("scorekeeper.screens.clubs.urls")),
    path("", include("scorekeeper.screens.seasons.urls")),
    path("", include("scorekeeper.screens.figures.urls")),
    path("", include("scorekeeper.screens.tournaments.urls")),
    path("", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

# Django's error pages, without the CSRF check that read the body first (a broken form
# posted to no page was a 500): see scorekeeper/server/error_pages.py.
handler400 = "scorekeeper.server.error_pages.bad_request"
handler403 = "scorekeeper.server.error_pages.permission_denied"
handler404 = "scorekeeper.server.error_pages.page_not_found"
handler500 = "scorekeeper.server.error_pages.server_error"
