"""Every URL of the table, for an anonymous visitor, a non-member, a member and the owner."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.scoring.tarot import PassedDeal
from tests.factories import deal_post, make_club, make_member, make_user, start_evening

pytestmark = pytest.mark.django_db

ANONYMOUS, STRANGER, MEMBER, OWNER = "anonymous", "stranger", "member", "owner"


@pytest.fixture
def world():
    club, players = make_club()
    owner = club.memberships.get(role="owner").user
    member = make_member(club)
    stranger = make_user("zoe@example.com", "Zoé")
    make_club(stranger, name="Other club", players=["Xavier", "Yann", "Zoé"])
    evening, game = start_evening(club, players)
    ids = tuple(p.pk for p in players)
    deal = services.deal_record(game=game, inputs=PassedDeal(seated=ids))
    second = services.deal_record(game=game, inputs=PassedDeal(seated=ids))
    deleted = services.deal_delete(deal=second)
    users = {ANONYMOUS: None, STRANGER: stranger, MEMBER: member, OWNER: owner}
    return {
        "users": users,
        "club": club,
        "evening": evening,
        "game": game,
        "deal": deal,
        "deleted": deleted,
        "players": players,
    }


def routes(w):
    e, g, d = w["evening"].pk, w["game"].pk, w["deal"].pk
    p = w["players"]
    form = deal_post(dealer=p[0].pk, passed="on")
    return [
        # (name, method, url, data, who may: "member" or "owner")
        ("evening_new", "get", reverse("evening_new", args=[w["club"].pk]), None, MEMBER),
        ("evening", "get", reverse("evening", args=[e]), None, MEMBER),
        ("evening_live", "get", reverse("evening_live", args=[e]), None, MEMBER),
        ("deal_preview", "post", reverse("deal_preview", args=[e, g]), form, MEMBER),
        ("deal_create", "post", reverse("deal_create", args=[e, g]), form, MEMBER),
        ("deal_edit", "get", reverse("deal_edit", args=[e, d]), None, MEMBER),
        ("deal_edit_post", "post", reverse("deal_edit", args=[e, d]), form, MEMBER),
        ("deal_delete", "post", reverse("deal_delete", args=[e, d]), {}, MEMBER),
        ("deal_restore", "post", reverse("deal_restore", args=[e, w["deleted"].pk]), {}, MEMBER),
        ("seat_join", "post", reverse("seat_join", args=[e, g]), {"player": p[0].pk}, MEMBER),
        ("seat_leave", "post", reverse("seat_leave", args=[e, g, p[0].pk]), {}, MEMBER),
        ("evening_close", "post", reverse("evening_close", args=[e]), {}, OWNER),
        ("evening_reopen", "post", reverse("evening_reopen", args=[e]), {}, OWNER),
        ("share_create", "post", reverse("share_create", args=[e]), {}, OWNER),
        ("share_revoke", "post", reverse("share_revoke", args=[e]), {}, OWNER),
    ]


ROUTE_NAMES = [
    "evening_new", "evening", "evening_live", "deal_preview", "deal_create", "deal_edit",
    "deal_edit_post", "deal_delete", "deal_restore", "seat_join", "seat_leave",
    "evening_close", "evening_reopen", "share_create", "share_revoke",
]  # fmt: skip


@pytest.mark.parametrize("who", [ANONYMOUS, STRANGER, MEMBER, OWNER])
@pytest.mark.parametrize("route", ROUTE_NAMES)
def test_only_members_reach_the_table_and_only_the_owner_its_owner_actions(
    world, route: str, who: str
) -> None:
    name, method, url, data, allowed = next(r for r in routes(world) if r[0] == route)
    client = Client()
    if world["users"][who] is not None:
        client.force_login(world["users"][who])
    response = getattr(client, method)(url, data) if data is not None else client.get(url)
    may = who == OWNER or (who == MEMBER and allowed == MEMBER)
    if may:
        assert response.status_code in (200, 302), (name, who, response.status_code)
    elif who == MEMBER:  # a member knows the evening: told it is the owner's action
        assert response.status_code == 403, (name, who, response.status_code)
    else:
        assert response.status_code == 404, (name, who, response.status_code)


def test_the_404_tells_nothing_about_the_evening(world) -> None:
    client = Client()
    client.force_login(world["users"][STRANGER])
    response = client.get(reverse("evening", args=[world["evening"].pk]))
    assert world["club"].name not in response.text
    assert "Ana" not in response.text


def test_an_unknown_share_token_is_404() -> None:
    assert Client().get(reverse("evening_shared", args=["nope"])).status_code == 404
