"""The installable app: web app manifest, service worker, offline page and favicon.

The service worker is served from ``/sw.js`` (its scope: the whole site), its logic imported
from a static file; its version is a hash of the static files, so a deploy that changes them
drops the old static cache.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import PrefixNode, static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_http_methods

# The site's light and dark themes (static/scorekeeper/site.css): page and header colours.
THEME = {
    "light": {"background": "#f7f5f0", "bar": "#ffffff"},
    "dark": {"background": "#141311", "bar": "#1f1d1a"},
}

# Kept at install so that a page never opened offline still has its styles and scripts.
PRECACHE = [
    "scorekeeper/site.css",
    "scorekeeper/pwa.css",
    "scorekeeper/club.css",
    "scorekeeper/counter.css",
    "scorekeeper/stats.css",
    "scorekeeper/pwa.js",
    "scorekeeper/deal-queue-store.js",
    "scorekeeper/deal-queue.js",
    "scorekeeper/share.js",
    "scorekeeper/wake-lock.js",
    "scorekeeper/icons/icon.svg",
    "scorekeeper/icons/favicon-32.png",
    "scorekeeper/icons/icon-192.png",
    "django_htmx/htmx-2.min.js",
]
SW_LOGIC = "scorekeeper/sw-logic.js"
ICONS = (  # the manifest's: file, sizes, type, purpose
    ("icon-192.png", "192x192", "image/png", "any"),
    ("icon-512.png", "512x512", "image/png", "any"),
    ("icon-maskable-512.png", "512x512", "image/png", "maskable"),
    ("icon.svg", "any", "image/svg+xml", "any"),
)


def _static_version() -> str:
    """A short hash that changes whenever a static file changes."""
    manifest = getattr(staticfiles_storage, "hashed_files", None)
    digest = hashlib.sha256()
    if manifest:  # production: the manifest names every file by the hash of its content
        digest.update(json.dumps(sorted(manifest.items())).encode())
    else:  # development and tests: the files the worker keeps, read from the apps' folders
        for path in sorted([*PRECACHE, SW_LOGIC]):
            found = finders.find(path)
            digest.update(path.encode())
            if found:
                with open(found, "rb") as file:
                    digest.update(file.read())
    return digest.hexdigest()[:16]


_cached_version = lru_cache(maxsize=1)(_static_version)


def static_version() -> str:
    # Static files change under a running development server; in production they do not.
    return _static_version() if settings.DEBUG else _cached_version()


@require_http_methods(["GET", "HEAD"])
@cache_control(no_cache=True, max_age=0)
def service_worker(request: HttpRequest) -> HttpResponse:
    config = {
        "version": static_version(),
        "staticUrl": PrefixNode.handle_simple("STATIC_URL"),
        "precache": [static(path) for path in PRECACHE],
        "offlineUrl": reverse("offline"),
        "logoutUrl": reverse("accounts:logout"),
        "queueScript": static("scorekeeper/deal-queue-store.js"),
    }
    body = (
        "// Scorekeeper's service worker: its settings, then its logic (a static file).\n"
        f"self.SK = {json.dumps(config)};\n"
        f"importScripts({json.dumps(static(SW_LOGIC))});\n"
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


def _manifest_language(request: HttpRequest) -> str:
    """The ``lang`` query parameter when it names one of the site's languages."""
    wanted = request.GET.get("lang", "")
    codes = {code for code, _name in settings.LANGUAGES}
    return wanted if wanted in codes else translation.get_language() or settings.LANGUAGE_CODE


@require_http_methods(["GET", "HEAD"])
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    language = _manifest_language(request)
    icons = static("scorekeeper/icons/")
    with translation.override(language):
        data = {
            "id": "/",
            "lang": language,
            "dir": "ltr",
            "name": _("Scorekeeper: French Tarot scores"),
            "short_name": _("Scorekeeper"),
            "description": _(
                "Keeps the score of French Tarot and L'escopette at the table, "
                "even with no network."
            ),
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "orientation": "portrait",
            "theme_color": THEME["light"]["bar"],
            "background_color": THEME["light"]["background"],
            "categories": ["games", "utilities"],
            "icons": [
                {"src": f"{icons}{name}", "sizes": sizes, "type": kind, "purpose": purpose}
                for name, sizes, kind, purpose in ICONS
            ],
        }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Content-Language"] = language
    return response


@require_http_methods(["GET", "HEAD"])
@never_cache
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page never opened on this device."""
    return render(request, "scorekeeper/install/offline.html")


@require_http_methods(["GET", "HEAD"])
def favicon(request: HttpRequest) -> HttpResponse:
    return redirect(static("scorekeeper/icons/favicon-32.png"), permanent=True)
