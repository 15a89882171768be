"""The error pages (400, 403, 404, 405, 500, and a refused form token) with DEBUG off: the
status, the app's layout, a way back, in the page's language (issue 36, item 6)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import make_club

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.urls("tests.scorekeeper.server.error_urls"),
]

LANGUAGES = ("fr", "en", "ru")

#: Each status: how to get it, and its heading in French, English and Russian.
HEADINGS = {
    400: {"fr": "Cette demande n’a pas pu être lue", "en": "This request could not be read",
          "ru": "Этот запрос не удалось прочитать"},
    403: {"fr": "Action non autorisée", "en": "Not allowed", "ru": "Действие запрещено"},
    404: {"fr": "Page introuvable", "en": "Page not found", "ru": "Страница не найдена"},
    405: {"fr": "Cette action n’est pas possible ici", "en": "This action is not possible here",
          "ru": "Это действие здесь невозможно"},
    500: {"fr": "Une erreur s’est produite", "en": "Something went wrong",
          "ru": "Что-то пошло не так"},
}  # fmt: skip
WAY_BACK = {"fr": "Retour à l’accueil", "en": "Back to the home page", "ru": "На главную"}


def ask(status: int, language: str) -> tuple[int, str]:
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
    requests: dict[int, Callable[[], object]] = {
        400: lambda: client.get("/", HTTP_HOST="not-this-site.example"),
        403: lambda: client.get("/tests/forbidden/"),
        404: lambda: client.get("/no-such-page/"),
        405: lambda: client.get(reverse("evening_close", args=[1])),
        500: lambda: client.get("/tests/broken/"),
    }
    response = requests[status]()
    return response.status_code, response.content.decode()  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("status", sorted(HEADINGS))
def test_an_error_page_says_what_happened_in_the_layout_with_a_way_back(
    status: int, language: str
) -> None:
    answered, text = ask(status, language)
    assert answered == status
    assert f'<html lang="{language}">' in text
    assert '<header class="site-header">' in text
    assert f'<h1 id="error-heading">{HEADINGS[status][language]}</h1>' in text
    assert f'class="button button-primary way-back" href="/">{WAY_BACK[language]}</a>' in text


def test_the_405_page_keeps_the_methods_the_address_takes() -> None:
    response = Client().get(reverse("evening_close", args=[1]))
    assert response.status_code == 405
    assert response["Allow"] == "POST"


def test_an_error_page_offers_the_page_before_when_it_is_this_sites() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.get("/no-such-page/", HTTP_REFERER="http://testserver/counter/?a=1")
    assert 'href="/counter/?a=1">Back to the page before</a>' in response.text
    elsewhere = client.get("/no-such-page/", HTTP_REFERER="https://elsewhere.example/counter/")
    assert "Back to the page before" not in elsewhere.text


def test_the_404_page_shows_the_signed_in_account_in_the_layout() -> None:
    club, _players = make_club()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(club.memberships.get().user)
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert '<span class="nav-user">Ana</span>' in response.text


def test_the_500_page_renders_without_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru")

    def unreachable(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the 500 page touched the database")

    monkeypatch.setattr(connection, "cursor", unreachable)
    response = client.get("/tests/broken/")
    assert response.status_code == 500
    assert "Что-то пошло не так" in response.content.decode()


def test_the_500_page_renders_when_the_context_processors_fail() -> None:
    options = {**settings.TEMPLATES[0]["OPTIONS"], "context_processors": [f"{__name__}.failing"]}
    with override_settings(TEMPLATES=[{**settings.TEMPLATES[0], "OPTIONS": options}]):
        response = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en").get(
            "/tests/broken/"
        )
    assert response.status_code == 500
    assert '<h1 id="error-heading">Something went wrong</h1>' in response.content.decode()


def failing(request: object) -> dict[str, object]:
    raise RuntimeError("a context processor that fails")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_form_token_is_a_page_in_the_layout(language: str) -> None:
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    response = client.post("/login/", {"email": "ana@example.com"})
    assert response.status_code == 403
    assert response["X-CSRF-Refused"] == "1"
    text = response.content.decode()
    assert '<header class="site-header">' in text
    heading = {"fr": "Ce formulaire a expiré", "en": "This form has expired",
               "ru": "Срок действия формы истёк"}[language]  # fmt: skip
    assert f'<h1 id="error-heading">{heading}</h1>' in text


def test_a_request_for_another_host_gets_the_400_page_in_the_layout_without_an_error_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Refused before the authentication middleware, the request has no user: the layout
    draws it signed out (an error logged for each such request would bury the real ones)."""
    with caplog.at_level("ERROR", logger="scorekeeper.server.error_pages"):
        answered, text = ask(400, "en")
    assert answered == 400
    assert ">Sign in</a>" in text
    assert not [r for r in caplog.records if r.name == "scorekeeper.server.error_pages"]
