"""Signing in turns the invitations waiting for the address into memberships."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from scorekeeper.models import Invitation, Membership
from scorekeeper.services import club_create

pytestmark = pytest.mark.django_db


def sign_in_with_code(client: Client, email: str) -> None:
    client.post("/login/", {"email": email})
    code = re.search(r"\b(\d{6})\b", mail.outbox[-1].body).group(1)
    assert client.post("/login/code/", {"code": code}).status_code == 302


def sign_in_with_link(client: Client, email: str) -> None:
    Client().post("/login/", {"email": email})
    path = re.search(r"http://testserver(/login/link/\S+)", mail.outbox[-1].body).group(1)
    assert client.post(path).status_code == 302


@pytest.mark.parametrize("sign_in", [sign_in_with_code, sign_in_with_link])
def test_a_new_account_joins_the_clubs_that_invited_its_address(sign_in) -> None:
    owner = User.objects.create_user("owner@example.com")
    club = club_create(name="Les Tarotistes", owner=owner)
    Invitation.objects.create(club=club, email="newcomer@example.com", invited_by=owner)
    sign_in(Client(), "NewComer@Example.com")
    newcomer = User.objects.get(email="newcomer@example.com")
    membership = Membership.objects.get(club=club, user=newcomer)
    assert membership.role == Membership.Role.MEMBER
    assert not Invitation.objects.exists()


def test_an_existing_account_joins_when_it_next_signs_in() -> None:
    owner = User.objects.create_user("owner@example.com")
    member = User.objects.create_user("jo@example.com")
    clubs = [club_create(name=name, owner=owner) for name in ("A", "B")]
    for club in clubs:
        Invitation.objects.create(club=club, email="jo@example.com", invited_by=owner)
    Invitation.objects.create(club=clubs[0], email="someone.else@example.com")
    sign_in_with_code(Client(), "jo@example.com")
    assert set(Membership.objects.filter(user=member).values_list("club", flat=True)) == {
        club.pk for club in clubs
    }
    assert list(Invitation.objects.values_list("email", flat=True)) == ["someone.else@example.com"]


def test_asking_for_a_code_accepts_nothing_yet() -> None:
    owner = User.objects.create_user("owner@example.com")
    club = club_create(name="C", owner=owner)
    Invitation.objects.create(club=club, email="kim@example.com")
    Client().post("/login/", {"email": "kim@example.com"})
    assert Invitation.objects.count() == 1
