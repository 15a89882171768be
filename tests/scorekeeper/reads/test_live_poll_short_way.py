"""The live poll answers "nothing changed" from one tiny query once a session was let in."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Evening
from scorekeeper.scoring.tarot import PassedDeal
from scorekeeper.screens.table.live_shortcut import ASKED, LivePollFirst
from tests.factories import followed_table, make_user

pytestmark = pytest.mark.django_db
REQUEST_LOG = "scorekeeper.requests"


@pytest.fixture
def table():
    return followed_table()


def following(member, evening: Evening) -> tuple[Client, str]:
    """A phone of ``member`` signed in, and the live poll's address of ``evening``."""
    client = Client()
    client.force_login(member)
    return client, reverse("evening_live", args=[evening.pk])


def poll(client: Client, url: str, version: object) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, {"version": version}, HTTP_HX_REQUEST="true")
    return response.status_code, [query["sql"] for query in captured.captured_queries]


def test_a_member_polling_an_unchanged_evening_costs_one_query(table) -> None:
    _club, _players, member, evening, _game = table
    client, url = following(member, evening)
    status, first = poll(client, url, evening.version)
    assert status == 304 and len(first) > 1  # the full way: user, evening, membership
    status, then = poll(client, url, evening.version)
    assert status == 304
    assert len(then) == 1 and "version" in then[0]


def test_a_saved_deal_is_sent_at_the_next_poll(table) -> None:
    _club, players, member, evening, game = table
    client, url = following(member, evening)
    assert poll(client, url, evening.version)[0] == 304
    services.deal_record(game=game, inputs=PassedDeal(seated=tuple(p.pk for p in players)))
    response = client.get(url, {"version": evening.version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert f'data-version="{evening.version + 1}"' in response.content.decode()


def test_a_member_removed_learns_nothing_new(table) -> None:
    club, players, member, evening, game = table
    client, url = following(member, evening)
    assert poll(client, url, evening.version)[0] == 304
    club.memberships.filter(user=member).delete()
    services.deal_record(game=game, inputs=PassedDeal(seated=tuple(p.pk for p in players)))
    assert poll(client, url, evening.version)[0] == 404  # the change goes the full way


def test_a_stranger_never_gets_the_short_way(table) -> None:
    _club, _players, member, evening, _game = table
    stranger = make_user("zoe@example.com", "Zoé")
    member_client, stranger_client = Client(), Client()
    member_client.force_login(member)
    stranger_client.force_login(stranger)
    url = reverse("evening_live", args=[evening.pk])
    assert poll(member_client, url, evening.version)[0] == 304
    for _ in range(2):
        assert poll(stranger_client, url, evening.version)[0] == 404
    assert poll(Client(), url, evening.version)[0] == 404  # no session at all


@pytest.mark.parametrize("version", ["", "x", "²", "-1", "9" * 40])
def test_an_odd_version_goes_the_full_way(table, version: str) -> None:
    _club, _players, member, evening, _game = table
    client, url = following(member, evening)
    assert poll(client, url, evening.version)[0] == 304
    status, queries = poll(client, url, version)
    assert status == 200 and len(queries) > 1


def test_a_share_link_polls_with_one_query_and_stops_when_revoked(table) -> None:
    _club, players, _member, evening, game = table
    evening = services.share_link_create(evening=evening)
    token = evening.share_token
    url = reverse("evening_shared_live", args=[token])
    client = Client()
    assert poll(client, url, evening.version)[0] == 304
    status, queries = poll(client, url, evening.version)
    assert status == 304 and len(queries) == 1
    services.share_link_revoke(evening=Evening.objects.get(pk=evening.pk))
    services.deal_record(game=game, inputs=PassedDeal(seated=tuple(p.pk for p in players)))
    assert poll(client, url, evening.version)[0] == 404


def test_the_short_way_answers_before_the_session_and_the_rest_of_the_middleware(table) -> None:
    _club, _players, member, evening, _game = table
    client, url = following(member, evening)
    first = client.get(url, {"version": evening.version}, HTTP_HX_REQUEST="true")
    assert first.status_code == 304 and hasattr(first.wsgi_request, "session")  # the full way
    then = client.get(url, {"version": evening.version}, HTTP_HX_REQUEST="true")
    assert then.status_code == 304
    assert not hasattr(then.wsgi_request, "session")  # answered before the session was read
    assert then["Cache-Control"] == "private, no-store"


def test_a_database_error_on_the_short_way_goes_the_usual_way(table, monkeypatch) -> None:
    from django.db import OperationalError

    from scorekeeper.reads import live

    _club, _players, member, evening, _game = table
    client, url = following(member, evening)
    assert poll(client, url, evening.version)[0] == 304

    def lost(*_args: object) -> None:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(live._version, "tuples", lost)
    response = client.get(url, {"version": evening.version}, HTTP_HX_REQUEST="true")
    assert response.status_code == 304 and hasattr(response.wsgi_request, "session")


def test_a_post_or_another_path_never_takes_the_short_way(table) -> None:
    _club, _players, member, evening, _game = table
    client, url = following(member, evening)
    assert poll(client, url, evening.version)[0] == 304
    assert client.post(url, {"version": evening.version}).status_code == 405
    page = client.get(reverse("evening", args=[evening.pk]), {"version": evening.version})
    assert page.status_code == 200


class Inner:
    """The application behind the WSGI wrapper: says whether it was reached."""

    def __init__(self) -> None:
        self.environs: list[dict] = []

    def __call__(self, environ: dict, start_response) -> list[bytes]:
        self.environs.append(environ)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"the usual way"]


def wsgi_poll(application, client: Client, url: str, version: object, method: str = "GET"):
    """The poll as gunicorn hands it over: a WSGI environ with the phone's cookies."""
    cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    factory = RequestFactory()
    request = getattr(factory, method.lower())(url, {"version": version}, HTTP_COOKIE=cookie)
    statuses: list[tuple[str, list]] = []
    body = application(request.environ, lambda status, headers: statuses.append((status, headers)))
    return statuses[0], b"".join(body), request.environ


def test_gunicorn_is_served_the_wrapper_in_front_of_django() -> None:
    from django.core.handlers.wsgi import WSGIHandler

    from scorekeeper import wsgi

    assert isinstance(wsgi.application, LivePollFirst)
    assert isinstance(wsgi.application.application, WSGIHandler)


def test_the_wrapper_answers_an_unchanged_poll_without_reaching_django(table, caplog) -> None:
    _club, _players, member, evening, _game = table
    client, url = following(member, evening)
    assert poll(client, url, evening.version)[0] == 304  # the full way let the session in
    inner = Inner()
    wrapper = LivePollFirst(inner)
    with CaptureQueriesContext(connection) as captured, caplog.at_level("INFO", REQUEST_LOG):
        (status, headers), body, _environ = wsgi_poll(wrapper, client, url, evening.version)
    assert status == "304 Not Modified" and body == b"" and inner.environs == []
    assert ("Cache-Control", "private, no-store") in headers
    assert len(captured.captured_queries) == 1
    logged = [r for r in caplog.records if r.name == REQUEST_LOG]
    assert [(r.method, r.path, r.status) for r in logged] == [("GET", url, 304)]


def test_the_wrapper_hands_anything_else_to_django_which_does_not_ask_again(table) -> None:
    _club, players, member, evening, game = table
    client, url = following(member, evening)
    assert poll(client, url, evening.version)[0] == 304
    stranger = Client()
    stranger.force_login(make_user("zoe@example.com", "Zoé"))
    inner = Inner()
    wrapper = LivePollFirst(inner)
    cases = [
        (client, url, "x", "GET"),  # an odd version
        (client, url, evening.version, "POST"),
        (client, reverse("evening", args=[evening.pk]), evening.version, "GET"),
        (stranger, url, evening.version, "GET"),  # never let in
        (Client(), url, evening.version, "GET"),  # no session
    ]
    for phone, address, version, method in cases:
        (status, _headers), body, environ = wsgi_poll(wrapper, phone, address, version, method)
        assert (status, body) == ("200 OK", b"the usual way")
        assert environ[ASKED] is True
    services.deal_record(game=game, inputs=PassedDeal(seated=tuple(p.pk for p in players)))
    (status, _headers), _body, _environ = wsgi_poll(wrapper, client, url, evening.version)
    assert status == "200 OK" and len(inner.environs) == len(cases) + 1  # a new version


def test_a_poll_the_wrapper_asked_about_is_not_asked_again_by_the_middleware(table) -> None:
    _club, _players, member, evening, _game = table
    client, url = following(member, evening)
    assert poll(client, url, evening.version)[0] == 304
    asked = {ASKED: True}  # in the environ, as the wrapper leaves it
    response = client.get(url, {"version": evening.version}, HTTP_HX_REQUEST="true", **asked)
    assert response.status_code == 304 and hasattr(response.wsgi_request, "session")


def test_a_cache_error_on_the_short_way_goes_the_usual_way(table, monkeypatch) -> None:
    from scorekeeper.reads import live

    _club, _players, member, evening, _game = table
    client, url = following(member, evening)
    assert poll(client, url, evening.version)[0] == 304

    def away(*_args: object) -> None:
        raise ConnectionError("the cache is away")

    monkeypatch.setattr(live, "_lately", away)
    inner = Inner()
    (status, _headers), _body, _environ = wsgi_poll(
        LivePollFirst(inner), client, url, evening.version
    )
    assert status == "200 OK" and len(inner.environs) == 1
