"""Hypothesis over every URL that takes an id, a query parameter or a form field: as an
anonymous visitor, a member and the owner, a crafted value is a 4xx (or a page), never a
500. It runs on SQLite and, in .ci/run's second pass, on PostgreSQL.

The URL patterns are read from the resolver, so a new page is fuzzed without editing this
file; the form field names from every form class of the project. Each pattern gets a few
examples (well under a minute for the whole file).
"""

from __future__ import annotations

import datetime as dt
import inspect
import re
from urllib.parse import quote

import pytest
from django import forms
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import accounts.forms
import scorekeeper.screens.clubs.forms
import scorekeeper.screens.counter.forms
import scorekeeper.screens.seasons.forms
import scorekeeper.screens.table.deal_forms
import scorekeeper.screens.table.evening_forms
import scorekeeper.screens.tournaments.forms
from scorekeeper import services
from scorekeeper.exchange import archive_write
from scorekeeper.models import Club, Game
from scorekeeper.scoring.escopette import STAKE_TRUMPS
from scorekeeper.scoring.tarot import PassedDeal
from tests.factories import deal_post, make_club, make_member, make_user, start_evening
from tests.scorekeeper.services.test_deal_races import at_once

pytestmark = pytest.mark.django_db

ANONYMOUS, MEMBER, OWNER = "anonymous", "member", "owner"
SKIPPED_PREFIXES = ("admin/", "i18n/")  # Django's own (staff only / language switch)
PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def _patterns(resolver=None, prefix: str = ""):
    for entry in (resolver or get_resolver()).url_patterns:
        text = prefix + str(entry.pattern)
        if text.startswith(SKIPPED_PREFIXES):
            continue
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, text)
        elif isinstance(entry, URLPattern):
            yield text.lstrip("^").rstrip("$")


PATTERNS = sorted(set(_patterns()))


def _field_names() -> list[str]:
    names: set[str] = {f"stake_{stake}" for stake in STAKE_TRUMPS}
    for module in (
        accounts.forms,
        scorekeeper.screens.clubs.forms,
        scorekeeper.screens.counter.forms,
        scorekeeper.screens.table.deal_forms,
        scorekeeper.screens.table.evening_forms,
        scorekeeper.screens.seasons.forms,
        scorekeeper.screens.tournaments.forms,
    ):
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, forms.BaseForm) and hasattr(cls, "base_fields"):
                names.update(cls.base_fields)
    prefixes = ("", "deal-", "club-", "invitation-", "player-", "tournament-", "register-")
    return sorted(prefix + name for name in names for prefix in prefixes)


FIELD_NAMES = [*_field_names(), "archive-token"]  # the restore page's confirm
QUERY_NAMES = ["undo", "deal", "season", "game", "version", "sort", "dir", "next", "return"]

NASTY = [
    "²", "٣", "0", "-1", "+1", " 1", "1.5", "1e3", "0x10", "", "\x00", "1\x00", "a\x00b",
    str(2**63 - 1), str(2**63), str(2**64), "9" * 40, "a" * 300, "Zoé", "Zoe\u0301",
    "x\u200b", "%", "%00", "../", "//evil.example", "<script>", "'; --", "null",
    "true", "on", "attack", "defence", "tarot", "escopette", "2026-02-30", "0001-01-01",
]  # fmt: skip
CRAFTED = st.one_of(
    st.sampled_from(NASTY),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(max_size=12),
)


@pytest.fixture
def world():
    club, players = make_club()
    owner = club.memberships.get(role="owner").user
    member = make_member(club)
    evening, game = start_evening(club, players)
    ids = tuple(p.pk for p in players)
    deal = services.deal_record(game=game, inputs=PassedDeal(seated=ids))
    second = services.deal_record(game=game, inputs=PassedDeal(seated=ids))
    deleted = services.deal_delete(deal=second)
    evening = services.share_link_create(evening=evening)
    escopette_evening = services.evening_start(
        club=club,
        players=players,
        first_dealer=players[0],
        created_by=owner,
        kind=Game.Kind.ESCOPETTE,
        target=50,
    )
    invitation = services.invitation_create(club=club, email="cleo@example.com", invited_by=owner)
    season = services.season_create(
        club=club, name="Spring", start=dt.date(2026, 3, 1), end=dt.date(2026, 5, 31)
    )
    tournament = services.tournament_create(
        club=club, created_by=owner, name="Cup", rounds=2, deals_per_round=2
    )
    entrants = [
        services.tournament_register(tournament=tournament, player=player) for player in players
    ]
    first_round = services.round_start(tournament=tournament, created_by=owner)
    real = {
        "club_id": [club.pk],
        "tournament_id": [tournament.pk],
        "entrant_id": [entrants[0].pk],
        "number": [first_round.number],
        "table": [1],
        "evening_id": [evening.pk, escopette_evening.pk],
        "game_id": [game.pk, escopette_evening.games.get().pk],
        "deal_id": [deal.pk],
        "deleted_id": [deleted.pk],
        "player_id": [p.pk for p in players],
        "membership_id": [m.pk for m in club.memberships.all()],
        "invitation_id": [invitation.pk],
        "season_id": [season.pk],
        "token": [
            evening.share_token,
            tournament.public_token,
            first_round.tables.get().token,
        ],
    }
    base_form = deal_post(dealer=players[0].pk, passed="on")
    base_form.update({f"deal-stake_{s}": players[0].pk for s in STAKE_TRUMPS})
    return {"users": {MEMBER: member, OWNER: owner}, "real": real, "base_form": base_form}


def _path(pattern: str, values: dict[str, str]) -> str:
    return "/" + PARAMETER.sub(lambda m: quote(values[m.group("name")], safe=""), pattern)


@st.composite
def requests(draw, pattern: str, real: dict[str, list[int | str]]):
    values = {}
    for match in PARAMETER.finditer(pattern):
        name = match.group("name")
        candidates = [str(v) for v in real.get(name, [])]
        if candidates and draw(st.booleans()):
            values[name] = draw(st.sampled_from(candidates))
        else:
            values[name] = draw(CRAFTED)
    names = st.one_of(st.sampled_from(QUERY_NAMES), st.sampled_from(FIELD_NAMES))
    query = draw(st.dictionaries(names, CRAFTED, max_size=3))
    form = draw(st.dictionaries(st.sampled_from(FIELD_NAMES), CRAFTED, max_size=6))
    return {
        "who": draw(st.sampled_from([ANONYMOUS, MEMBER, OWNER])),
        "method": draw(st.sampled_from(["get", "post"])),
        "path": _path(pattern, values),
        "query": query,
        "form": form,
        "keep_base_form": draw(st.booleans()),
        "htmx": draw(st.booleans()),
    }


# Sent to every pattern besides the random examples: "²" passes isdigit(), 2**63 is past a
# 64-bit id, NUL is refused by PostgreSQL in text.
SWEEP = ["²", str(2**63), "a\x00"]


def _send(client: Client, method: str, url: str, data: dict, htmx: bool = False) -> int:
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    if method == "get":
        return client.get(url, **extra).status_code
    return client.post(url, data, **extra).status_code


def _sweep(clients: dict[str, Client], world, pattern: str) -> None:
    real = {name: str(values[0]) for name, values in world["real"].items()}
    names = [m.group("name") for m in PARAMETER.finditer(pattern)]
    for value in SWEEP:
        # Real ids in the path, the crafted value in every query parameter and form field.
        path = _path(pattern, {n: real.get(n, value) for n in names})
        query = "&".join(f"{name}={quote(value, safe='')}" for name in QUERY_NAMES)
        form = {**world["base_form"], **dict.fromkeys(FIELD_NAMES, value)}
        for who in (MEMBER, OWNER):
            for method in ("get", "post"):
                status = _send(clients[who], method, f"{path}?{query}", form)
                assert status < 500, (who, method, path, value, status)
        # The crafted value in each path parameter in turn.
        for crafted in names:
            path = _path(pattern, {n: real.get(n, value) for n in names} | {crafted: value})
            for method in ("get", "post"):
                status = _send(clients[OWNER], method, path, world["base_form"])
                assert status < 500, (method, path, value, status)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_no_crafted_request_is_a_server_error(world, pattern: str) -> None:
    clients = {ANONYMOUS: Client()}
    for who, user in world["users"].items():
        clients[who] = Client()
        clients[who].force_login(user)
    _sweep(clients, world, pattern)

    @settings(
        max_examples=12,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(request=requests(pattern, world["real"]))
    def check(request) -> None:
        query = "&".join(f"{quote(k)}={quote(v, safe='')}" for k, v in request["query"].items())
        url = request["path"] + (f"?{query}" if query else "")
        data = {**world["base_form"], **request["form"]} if request["keep_base_form"] else {}
        data.update(request["form"])
        status = _send(clients[request["who"]], request["method"], url, data, request["htmx"])
        assert status < 500, (request, status)

    check()


def test_every_pattern_with_a_parameter_is_fuzzed() -> None:
    """The patterns come from the resolver: the table's and the clubs' pages are among them."""
    assert "evenings/<id:evening_id>/games/<id:game_id>/deals/" in PATTERNS
    assert "shared/<token:token>/" in PATTERNS
    assert "login/" in PATTERNS
    assert len(PATTERNS) >= 40


# --- The archive's confirm: crafted tokens, and confirms at the same moment ------------------


def _upload(client: Client, content: bytes) -> str:
    upload = SimpleUploadedFile("club.json", content, "application/json")
    page = client.post("/clubs/restore/", {"archive-file": upload}).content.decode()
    return page.split('name="archive-token" value="')[1].split('"')[0]


@settings(
    max_examples=30,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(token=CRAFTED, who=st.sampled_from([ANONYMOUS, MEMBER, OWNER]))
def test_a_crafted_archive_token_is_never_a_server_error(world, token: str, who: str) -> None:
    client = Client()
    if who != ANONYMOUS:
        client.force_login(world["users"][who])
    clubs = Club.objects.count()
    assert client.post("/clubs/restore/", {"archive-token": token}).status_code < 500
    assert Club.objects.count() == clubs


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (the second pass of .ci/run)"
)
@pytest.mark.django_db(transaction=True)
def test_confirms_at_the_same_moment_are_never_server_errors_and_make_one_club_a_token() -> None:
    owner = make_user("owner@example.com", "Owner")
    club, _players = make_club(owner)
    content = archive_write.dump_archive(club).encode()
    people = [make_user(f"p{n}@example.com", f"P{n}") for n in range(4)]
    tokens = {}
    for person in people:
        browser = Client()
        browser.force_login(person)
        tokens[person.pk] = _upload(browser, content)

    def confirm(person, token: str) -> int:
        browser = Client()
        browser.force_login(person)
        return browser.post("/clubs/restore/", {"archive-token": token}).status_code

    actions = []
    for person in people:
        actions += [lambda p=person: confirm(p, tokens[p.pk])] * 3  # a triple click
        actions.append(lambda p=person: confirm(p, tokens[people[0].pk]))  # another's token
        actions.append(lambda p=person: confirm(p, "²"))
    results, errors = at_once(*actions)
    assert errors == []
    assert all(status < 500 for status in results), results
    assert Club.objects.count() == 1 + len(people)
