"""The installable app, server side: manifest, service worker, offline page, favicon, head."""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings

from scorekeeper.screens.install import views as pwa_views


def test_the_manifest_names_the_app_in_the_language_asked_and_lists_its_icons(
    client: Client,
) -> None:
    response = client.get("/manifest.webmanifest?lang=fr")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["lang"] == "fr"
    assert data["display"] == "standalone"
    assert data["start_url"] == "/"
    assert {(icon["sizes"], icon["purpose"]) for icon in data["icons"]} >= {
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
    }
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200
    english = json.loads(client.get("/manifest.webmanifest?lang=en").content)
    assert english["description"] != data["description"]


def test_an_unknown_manifest_language_falls_back_to_the_readers(client: Client) -> None:
    data = json.loads(client.get("/manifest.webmanifest?lang=xx²").content)
    assert data["lang"] == "fr"


def test_the_service_worker_is_served_from_the_root_uncached_with_its_version(
    client: Client,
) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    config = json.loads(body.split("self.SK = ", 1)[1].split(";\n", 1)[0])
    assert config["version"] == pwa_views.static_version()
    assert config["offlineUrl"] == "/offline/"
    assert 'importScripts("/static/scorekeeper/sw-logic.js")' in body
    for url in config["precache"]:
        assert client.get(url).status_code == 200, url


def test_the_worker_version_changes_with_the_static_files(tmp_path, settings) -> None:
    before = pwa_views._static_version()
    changed = tmp_path / "scorekeeper"
    changed.mkdir()
    (changed / "site.css").write_text("body { color: red; }")
    with override_settings(STATICFILES_DIRS=[str(tmp_path)]):
        from django.contrib.staticfiles import finders

        finders.get_finder.cache_clear()
        try:
            after = pwa_views._static_version()
        finally:
            finders.get_finder.cache_clear()
    assert after != before


@pytest.mark.django_db
def test_the_offline_page_speaks_the_readers_language(client: Client) -> None:
    response = client.get("/offline/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    assert "Нет сети" in response.content.decode()


def test_the_favicon_is_found(client: Client) -> None:
    response = client.get("/favicon.ico", follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0].endswith("favicon-32.png")


@pytest.mark.django_db
def test_every_page_links_the_manifest_icons_theme_colours_and_scripts(client: Client) -> None:
    html = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest?lang=fr"' in html
    assert 'rel="apple-touch-icon"' in html
    assert 'name="theme-color" content="#ffffff" media="(prefers-color-scheme: light)"' in html
    assert 'name="theme-color" content="#1f1d1a" media="(prefers-color-scheme: dark)"' in html
    assert '<script id="sk-pwa" type="application/json">' in html
    assert "scorekeeper/pwa.js" in html
