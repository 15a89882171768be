from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from scorekeeper import views

urlpatterns = [
    path("", views.home, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
