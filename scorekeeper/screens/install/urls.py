"""The installable app's URLs: the manifest, the service worker at the root, the offline page."""

from __future__ import annotations

from django.urls import path

from scorekeeper.screens.install import views

urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
    path("favicon.ico", views.favicon, name="favicon"),
]
