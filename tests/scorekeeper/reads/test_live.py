"""The live poll's short way: "unchanged" only for a session or link let in lately, same version."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.contrib.sessions.backends.cache import SessionStore
from django.core.cache import cache
from django.http import HttpRequest
from django.test import RequestFactory

from scorekeeper import services
from scorekeeper.models import Evening
from scorekeeper.reads import live
from scorekeeper.scoring.tarot import PassedDeal
from scorekeeper.server import shared_cache
from tests.factories import make_club, start_evening

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    cache.clear()
    shared_cache.forget_local()
    yield
    cache.clear()


@pytest.fixture
def evening() -> Evening:
    club, players = make_club()
    evening, _game = start_evening(club, players)
    evening.refresh_from_db()
    return evening


KEY = "s3ssion-k3y"  # the phone's session key


def poll(version: object, session_key: str = KEY) -> HttpRequest:
    """A phone's poll: the version it shows, with its session cookie."""
    request = RequestFactory().get("/", {"version": version} if version is not None else {})
    if session_key:
        request.COOKIES[settings.SESSION_COOKIE_NAME] = session_key
    request.session = SessionStore(session_key=session_key or None)
    return request


def test_a_session_let_in_lately_polling_the_same_version_gets_304_from_one_query(
    evening: Evening, django_assert_num_queries
) -> None:
    live.remember_member(poll(evening.version), evening.pk)
    with django_assert_num_queries(1):
        assert live.member_unchanged(KEY, evening.pk, evening.version)


def test_a_new_version_goes_the_full_way(evening: Evening) -> None:
    live.remember_member(poll(evening.version), evening.pk)
    services.deal_record(
        game=evening.games.get(),
        inputs=PassedDeal(seated=tuple(evening.games.get().seats.values_list("player", flat=True))),
    )
    assert not live.member_unchanged(KEY, evening.pk, evening.version)
    evening.refresh_from_db()
    assert live.member_unchanged(KEY, evening.pk, evening.version)


def test_a_session_never_let_in_goes_the_full_way_without_a_query(
    evening: Evening, django_assert_num_queries
) -> None:
    live.remember_member(poll(evening.version, "someone-else-k3y"), evening.pk)
    with django_assert_num_queries(0):
        assert not live.member_unchanged(KEY, evening.pk, evening.version)
        assert not live.member_unchanged("", evening.pk, evening.version)


def test_being_let_into_one_evening_says_nothing_about_another(evening: Evening) -> None:
    live.remember_member(poll(evening.version), evening.pk)
    assert not live.member_unchanged(KEY, evening.pk + 1, evening.version)


def test_a_share_link_followed_lately_gets_304_for_the_same_version(
    evening: Evening, django_assert_num_queries
) -> None:
    live.remember_shared("t0ken", evening.pk)
    with django_assert_num_queries(1):
        assert live.shared_unchanged("t0ken", evening.version)
    assert not live.shared_unchanged("t0ken", evening.version + 1)


def test_an_unknown_or_empty_share_token_goes_the_full_way(evening: Evening) -> None:
    live.remember_shared("t0ken", evening.pk)
    assert not live.shared_unchanged("other", evening.version)
    assert not live.shared_unchanged("", evening.version)


def test_the_cache_keys_hold_no_secret_in_clear(evening: Evening) -> None:
    live.remember_member(poll(evening.version, "s3ssion-k3y"), evening.pk)
    live.remember_shared("t0ken", evening.pk)
    assert "s3ssion-k3y" not in live._member_key("s3ssion-k3y", evening.pk)
    assert "t0ken" not in live._shared_key("t0ken")
    assert cache.get(live._member_key("s3ssion-k3y", evening.pk))[0] == evening.pk
    assert cache.get(live._shared_key("t0ken"))[0] == evening.pk


def test_a_let_in_read_once_is_then_known_in_this_process_until_it_ends(
    evening: Evening, monkeypatch
) -> None:
    live.remember_member(poll(evening.version), evening.pk)
    shared_cache.forget_local()  # another worker let the session in
    assert live.member_unchanged(KEY, evening.pk, evening.version)
    cache.clear()  # the shared cache is not asked again...
    assert live.member_unchanged(KEY, evening.pk, evening.version)
    later = time.time() + live.ACCESS_SECONDS + 1
    monkeypatch.setattr(live.time, "time", lambda: later)  # ...and the copy ends with it
    assert not live.member_unchanged(KEY, evening.pk, evening.version)


def test_a_let_in_ended_in_the_shared_cache_is_not_copied(evening: Evening, monkeypatch) -> None:
    live.remember_member(poll(evening.version), evening.pk)
    shared_cache.forget_local()
    later = time.time() + live.ACCESS_SECONDS + 1
    monkeypatch.setattr(live.time, "time", lambda: later)
    assert not live.member_unchanged(KEY, evening.pk, evening.version)


def test_the_full_way_writes_the_let_in_again_only_past_half_its_time(
    evening: Evening, monkeypatch
) -> None:
    writes: list[str] = []
    keep = cache.set
    monkeypatch.setattr(cache, "set", lambda key, *a, **k: (writes.append(key), keep(key, *a, **k)))
    for _ in range(3):
        live.remember_member(poll(evening.version), evening.pk)
    assert len(writes) == 1
    later = time.time() + live.ACCESS_SECONDS * 0.6
    monkeypatch.setattr(live.time, "time", lambda: later)
    live.remember_member(poll(evening.version), evening.pk)
    assert len(writes) == 2
