"""The join link asks before joining, does not let a removed member straight back in, and
lets back a member who left of their own accord."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Membership, RemovedMember
from scorekeeper.services import joins
from tests.factories import make_club, make_member, make_user

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def setting():
    owner = make_user("ana@example.com", "Ana")
    club, _players = make_club(owner)
    link = services.join_link_create(club=club, created_by=owner)
    return owner, club, reverse("club_join", args=[link.token])


def sign_in(client: Client, email: str, next_url: str) -> None:
    client.post("/login/", {"email": email, "next": next_url}, **EN)
    code = re.search(r"\b(\d{6})\b", mail.outbox[-1].body).group(1)
    client.post("/login/code/", {"code": code}, **EN)


def test_opening_the_link_signed_out_then_signing_in_asks_before_joining(setting) -> None:
    _owner, club, url = setting
    zoe = make_user("zoe@example.com", "Zoé")
    client = Client()
    assert client.get(url, **EN).status_code == 200
    sign_in(client, zoe.email, url)
    assert "_auth_user_id" in client.session
    assert not Membership.objects.filter(club=club, user=zoe).exists()  # not without asking
    page = client.get(url, **EN)
    assert f"Join {club.name}" in page.text and 'method="post"' in page.text
    client.post(url, **EN)
    assert Membership.objects.filter(club=club, user=zoe).exists()


def test_a_sign_in_later_in_the_same_browser_joins_nothing(setting) -> None:
    _owner, club, url = setting
    client = Client()
    client.get(url, **EN)  # someone opened the link on this browser, and left
    ben = make_user("ben@example.com", "Ben")
    sign_in(client, ben.email, "/")
    assert "_auth_user_id" in client.session
    assert not Membership.objects.filter(club=club, user=ben).exists()


def test_a_removed_member_cannot_rejoin_through_the_link_and_is_told_how(setting) -> None:
    owner, club, url = setting
    ben = make_member(club, "ben@example.com", "Ben")
    owner_client = Client()
    owner_client.force_login(owner)
    membership = Membership.objects.get(club=club, user=ben)
    answer = owner_client.post(
        reverse("member_remove", args=[club.pk, membership.pk]), follow=True, **EN
    )
    assert "The join link no longer lets them in" in answer.text
    client = Client()
    client.force_login(ben)
    page = client.get(url, **EN)
    assert page.status_code == 403 and "invite you again" in page.text
    assert client.post(url, **EN).status_code == 403
    assert not Membership.objects.filter(club=club, user=ben).exists()
    with pytest.raises(services.ServiceError):
        services.join_with_link(token=url.split("/")[-2], user=ben)


def test_an_invitation_from_the_owner_lets_a_removed_member_back(setting) -> None:
    owner, club, url = setting
    ben = make_member(club, "ben@example.com", "Ben")
    services.member_remove(membership=Membership.objects.get(club=club, user=ben))
    assert RemovedMember.objects.filter(club=club, user=ben).exists()
    services.invitation_create(club=club, email=ben.email, invited_by=owner)
    assert not RemovedMember.objects.exists()
    client = Client()
    client.force_login(ben)
    assert client.post(url, **EN).status_code == 302
    assert Membership.objects.filter(club=club, user=ben).exists()


def test_a_member_who_left_of_their_own_accord_rejoins_through_the_link(setting) -> None:
    _owner, club, url = setting
    ben = make_member(club, "ben@example.com", "Ben")
    client = Client()
    client.force_login(ben)
    left = client.post(reverse("club_leave", args=[club.pk]), follow=True, **EN)
    assert f"You have left {club.name}" in left.text
    assert not Membership.objects.filter(club=club, user=ben).exists()
    assert not RemovedMember.objects.exists()  # leaving is not a removal
    page = client.get(url, **EN)
    assert page.status_code == 200 and "removed you" not in page.text
    assert client.post(url, **EN).status_code == 302
    assert Membership.objects.filter(club=club, user=ben, role=Membership.Role.MEMBER).exists()


def test_a_removed_member_who_is_let_back_and_leaves_may_rejoin_but_a_removal_stays(
    setting,
) -> None:
    owner, club, url = setting
    ben = make_member(club, "ben@example.com", "Ben")
    services.member_remove(membership=Membership.objects.get(club=club, user=ben))
    assert joins.join_refused(club=club, user=ben)  # removed: the link keeps them out
    services.invitation_create(club=club, email=ben.email, invited_by=owner)
    services.invitations_accept(user=ben)
    services.member_leave(membership=Membership.objects.get(club=club, user=ben))
    assert not joins.join_refused(club=club, user=ben)
    services.join_with_link(token=url.split("/")[-2], user=ben)
    services.member_remove(membership=Membership.objects.get(club=club, user=ben))
    with pytest.raises(services.ServiceError):
        services.join_with_link(token=url.split("/")[-2], user=ben)


def test_the_owner_cannot_leave_and_is_told_to_hand_over_first(setting) -> None:
    owner, club, _url = setting
    client = Client()
    client.force_login(owner)
    answer = client.post(reverse("club_leave", args=[club.pk]), follow=True, **EN)
    assert "The owner cannot leave the club; hand over ownership first." in answer.text
    assert Membership.objects.filter(club=club, user=owner, role=Membership.Role.OWNER).exists()
