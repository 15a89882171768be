from __future__ import annotations

import re

from django.test import Client


def test_the_home_page_says_what_the_product_is_in_french_by_default(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert 'lang="fr"' in response.text
    assert "Tenez la marque du tarot" in response.text


def test_the_home_page_speaks_english_and_russian_when_asked(client: Client) -> None:
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    russian = client.get("/", HTTP_ACCEPT_LANGUAGE="ru")
    assert "Keep the score of French Tarot" in english.text
    assert 'lang="ru"' in russian.text
    assert "Keep the score of French Tarot" not in russian.text


def test_the_home_page_serves_htmx_from_our_own_static_files(client: Client) -> None:
    response = client.get("/")
    assert "/static/django_htmx/htmx-2" in response.text
    # No script or stylesheet from elsewhere (the page's random nonces may spell "cdn").
    addresses = re.findall(r'<(?:script|link)\b[^>]*?(?:src|href)="([^"]*)"', response.text)
    assert addresses and not [a for a in addresses if re.match(r"(https?:)?//", a)]
    assert "unpkg" not in response.text
