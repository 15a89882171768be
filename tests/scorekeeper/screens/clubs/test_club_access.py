"""Who may use each club URL: strangers (signed in or not) get 404, as for a club that does
not exist; the owner's actions give 404 to the other members too. A refused request
changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import Club, Invitation, Membership, Player

pytestmark = pytest.mark.django_db


@dataclass
class Scene:
    club: Club
    owner: User
    member: User
    stranger: User
    other_member: Membership
    player: Player
    retired_player: Player
    invitation: Invitation


@pytest.fixture
def scene() -> Scene:
    owner = User.objects.create_user("ana@example.com", display_name="Ana")
    member = User.objects.create_user("ben@example.com", display_name="Ben")
    carl = User.objects.create_user("carl@example.com", display_name="Carl")
    stranger = User.objects.create_user("eve@example.com", display_name="Eve")
    club = services.club_create(name="Les Excuses", owner=owner)
    Membership.objects.create(club=club, user=member)
    other_member = Membership.objects.create(club=club, user=carl)
    # The stranger owns a club of their own: owning one club gives no right on another.
    services.club_create(name="Le Chien", owner=stranger)
    retired_player = services.player_add(club=club, name="Yves")
    services.player_retire(player=retired_player)
    return Scene(
        club=club,
        owner=owner,
        member=member,
        stranger=stranger,
        other_member=other_member,
        player=services.player_add(club=club, name="Zoe"),
        retired_player=retired_player,
        invitation=services.invitation_create(club=club, email="dan@example.com", invited_by=owner),
    )


@dataclass(frozen=True)
class Action:
    name: str
    method: str
    owner_only: bool
    data: dict[str, str]

    def url(self, scene: Scene) -> str:
        args: list[Any] = [scene.club.pk]
        if self.name == "invitation_withdraw":
            args.append(scene.invitation.pk)
        elif self.name in {"member_remove", "member_make_owner"}:
            args.append(scene.other_member.pk)
        elif self.name in {"player_edit", "player_retire"}:
            args.append(scene.player.pk)
        elif self.name == "player_unretire":
            args.append(scene.retired_player.pk)
        return reverse(self.name, args=args)

    def __str__(self) -> str:
        return f"{self.method} {self.name}"


ACTIONS = [
    Action("club", "get", owner_only=False, data={}),
    Action("club_rename", "post", owner_only=True, data={"club-name": "Renamed"}),
    Action(
        "club_evening_points",
        "post",
        owner_only=True,
        data={"points-enabled": "on", "points-scale": "5, 3, 1"},
    ),
    Action("club_leave", "post", owner_only=False, data={}),
    Action("club_invite", "post", owner_only=True, data={"invitation-email": "fay@example.com"}),
    Action("invitation_withdraw", "post", owner_only=True, data={}),
    Action("member_remove", "post", owner_only=True, data={}),
    Action("member_make_owner", "get", owner_only=True, data={}),
    Action("member_make_owner", "post", owner_only=True, data={}),
    Action("player_add", "post", owner_only=False, data={"player-name": "Xavier"}),
    Action("player_edit", "get", owner_only=False, data={}),
    Action("player_edit", "post", owner_only=False, data={"name": "Zed", "user": ""}),
    Action("player_retire", "post", owner_only=False, data={}),
    Action("player_unretire", "post", owner_only=False, data={}),
]


def club_state(club: Club) -> tuple[Any, ...]:
    """Everything a club action could change."""
    club.refresh_from_db()
    return (
        club.name,
        club.evening_points,
        club.evening_points_scale,
        sorted(club.memberships.values_list("user__email", "role")),
        sorted(club.invitations.values_list("email", flat=True)),
        sorted(club.players.values_list("name", "retired", "user_id")),
    )


def send(client: Client, action: Action, scene: Scene) -> Any:
    return getattr(client, action.method)(action.url(scene), action.data)


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_an_anonymous_visitor_gets_404_and_changes_nothing(
    client: Client, scene: Scene, action: Action
) -> None:
    before = club_state(scene.club)
    assert send(client, action, scene).status_code == 404
    assert club_state(scene.club) == before


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_a_signed_in_stranger_gets_404_and_changes_nothing(
    client: Client, scene: Scene, action: Action
) -> None:
    client.force_login(scene.stranger)
    before = club_state(scene.club)
    assert send(client, action, scene).status_code == 404
    assert club_state(scene.club) == before


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_a_member_may_use_the_members_actions_and_is_told_the_owners_are_the_owners(
    client: Client, scene: Scene, action: Action
) -> None:
    client.force_login(scene.member)
    before = club_state(scene.club)
    response = send(client, action, scene)
    if action.owner_only:
        assert response.status_code == 403
        assert club_state(scene.club) == before
    else:
        assert response.status_code in {200, 302}


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_the_owner_may_use_every_action(client: Client, scene: Scene, action: Action) -> None:
    client.force_login(scene.owner)
    assert send(client, action, scene).status_code in {200, 302}


def every_pattern(patterns: list) -> list:
    found = []
    for pattern in patterns:
        nested = getattr(pattern, "url_patterns", None)
        found.extend(every_pattern(nested) if nested is not None else [pattern])
    return found


def test_every_club_url_is_covered_by_these_tests() -> None:
    from scorekeeper import urls
    from scorekeeper.screens.clubs import views as club_views

    club_url_names = {
        pattern.name
        for pattern in every_pattern(urls.urlpatterns)
        if getattr(pattern, "callback", None) is not None
        and pattern.callback.__module__ == club_views.__name__
    }
    assert club_url_names - {"club_new"} == {action.name for action in ACTIONS}


@pytest.mark.parametrize("who", ["owner", "member", "stranger"])
def test_a_club_that_does_not_exist_gives_404(client: Client, scene: Scene, who: str) -> None:
    client.force_login(getattr(scene, who))
    assert client.get(reverse("club", args=[scene.club.pk + 1000])).status_code == 404


@pytest.mark.parametrize(
    "name", ["player_edit", "player_retire", "player_unretire", "invitation_withdraw"]
)
def test_the_objects_of_another_club_give_404_even_to_an_owner(
    client: Client, scene: Scene, name: str
) -> None:
    other_club = Club.objects.get(name="Le Chien")
    other_player = services.player_add(club=other_club, name="Zoe")
    other_invitation = services.invitation_create(
        club=other_club, email="gus@example.com", invited_by=scene.stranger
    )
    target = other_invitation if name == "invitation_withdraw" else other_player
    client.force_login(scene.owner)
    response = client.post(reverse(name, args=[scene.club.pk, target.pk]), {"name": "Hacked"})
    assert response.status_code == 404
    other_player.refresh_from_db()
    assert (other_player.name, other_player.retired) == ("Zoe", False)
    assert Invitation.objects.filter(pk=other_invitation.pk).exists()


@pytest.mark.parametrize("name", ["member_remove", "member_make_owner"])
def test_the_members_of_another_club_give_404_even_to_an_owner(
    client: Client, scene: Scene, name: str
) -> None:
    other_owner = Membership.objects.get(club__name="Le Chien")
    client.force_login(scene.owner)
    response = client.post(reverse(name, args=[scene.club.pk, other_owner.pk]))
    assert response.status_code == 404
    assert Membership.objects.get(pk=other_owner.pk).is_owner


def test_creating_a_club_needs_to_be_signed_in(client: Client) -> None:
    response = client.get(reverse("club_new"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))
