"""A member's unchanged poll (where no event stream is given) costs two queries, whatever the
evening holds: the evening, then the membership with its account (with cached sessions, the
session costs none). A signed-out, deactivated or re-passworded account gets 404 at its next
poll."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse

from scorekeeper.models import Evening
from tests.factories import followed_table, make_user

pytestmark = pytest.mark.django_db

CACHED_SESSIONS = "django.contrib.sessions.backends.cached_db"


@pytest.fixture
def queries() -> Iterator[list[str]]:
    """The SQL run meanwhile (requests included: Django empties ``connection.queries`` at
    each request's start)."""
    seen: list[str] = []

    def note(execute: Callable, sql: str, params: object, many: bool, context: object) -> object:
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note):
        yield seen


def _poll(client: Client, evening: Evening):
    url = reverse("evening_live", args=[evening.pk])
    return client.get(
        url, {"since": "1"}, HTTP_IF_NONE_MATCH=f'"{evening.version}"', HTTP_HX_REQUEST="true"
    )


@override_settings(SESSION_ENGINE=CACHED_SESSIONS)
def test_a_members_unchanged_poll_is_two_queries_with_cached_sessions(
    client: Client, queries: list[str]
) -> None:
    _club, _players, member, evening, _game = followed_table()
    client.force_login(member)
    assert _poll(client, evening).status_code == 304  # the session now cached
    queries.clear()
    assert _poll(client, evening).status_code == 304
    assert len(queries) == 2
    assert "scorekeeper_evening" in queries[0]
    assert "accounts_user" in queries[1] and "scorekeeper_membership" in queries[1]


@override_settings(SESSION_ENGINE="django.contrib.sessions.backends.db")
def test_with_sessions_in_the_database_it_is_the_session_and_those_queries(
    client: Client, queries: list[str]
) -> None:
    _club, _players, member, evening, _game = followed_table()
    client.force_login(member)
    queries.clear()
    assert _poll(client, evening).status_code == 304
    assert len(queries) == 3 and "django_session" in queries[1]


def test_a_signed_out_phone_gets_404_at_its_next_poll(client: Client) -> None:
    _club, _players, member, evening, _game = followed_table()
    client.force_login(member)
    assert _poll(client, evening).status_code == 304
    client.logout()
    assert _poll(client, evening).status_code == 404


def test_a_deactivated_account_gets_404_at_its_next_poll(client: Client) -> None:
    _club, _players, member, evening, _game = followed_table()
    client.force_login(member)
    assert _poll(client, evening).status_code == 304
    member.is_active = False
    member.save(update_fields=["is_active"])
    assert _poll(client, evening).status_code == 404


def test_a_session_from_before_a_password_change_gets_404_at_its_next_poll(
    client: Client,
) -> None:
    _club, _players, member, evening, _game = followed_table()
    client.force_login(member)
    assert _poll(client, evening).status_code == 304
    member.set_password("a new password, set on another phone")
    member.save(update_fields=["password"])
    assert _poll(client, evening).status_code == 404


def test_another_clubs_member_gets_404_not_304(client: Client) -> None:
    _club, _players, _member, evening, _game = followed_table()
    client.force_login(make_user("stranger@example.com", "Stranger"))
    assert _poll(client, evening).status_code == 404


def test_an_unchanged_poll_carries_no_page_policies_the_changed_answer_does(
    client: Client,
) -> None:
    _club, _players, member, evening, _game = followed_table()
    client.force_login(member)
    policies = {"Content-Security-Policy", "Permissions-Policy"}
    assert not policies & set(_poll(client, evening).headers)  # no body to govern
    changed = client.get(reverse("evening_live", args=[evening.pk]), HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and policies <= set(changed.headers)
