"""The services behind the club pages: clubs, invitations, members and players."""

from __future__ import annotations

import pytest

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import Club, Invitation, Membership, Player
from scorekeeper.services import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana() -> User:
    return User.objects.create_user("ana@example.com", display_name="Ana")


@pytest.fixture
def ben() -> User:
    return User.objects.create_user("ben@example.com", display_name="Ben")


@pytest.fixture
def club(ana: User) -> Club:
    return services.club_create(name="Les Excuses", owner=ana)


def test_creating_a_club_makes_its_creator_the_owner(ana: User) -> None:
    club = services.club_create(name="  Les Excuses ", owner=ana)
    assert club.name == "Les Excuses"
    membership = Membership.objects.get(club=club)
    assert membership.user == ana
    assert membership.is_owner


def test_renaming_a_club_trims_the_name(club: Club) -> None:
    services.club_rename(club=club, name=" Le Petit ")
    club.refresh_from_db()
    assert club.name == "Le Petit"


def test_an_invitation_stores_the_address_in_lower_case(club: Club, ana: User) -> None:
    invitation = services.invitation_create(club=club, email=" Ben@Example.COM ", invited_by=ana)
    assert invitation.email == "ben@example.com"
    assert invitation.invited_by == ana


def test_inviting_the_same_address_twice_keeps_one_invitation(club: Club, ana: User) -> None:
    services.invitation_create(club=club, email="ben@example.com", invited_by=ana)
    services.invitation_create(club=club, email="BEN@example.com", invited_by=ana)
    assert Invitation.objects.filter(club=club).count() == 1


def test_inviting_an_existing_member_is_refused(club: Club, ana: User) -> None:
    with pytest.raises(ServiceError) as refused:
        services.invitation_create(club=club, email="ANA@example.com", invited_by=ana)
    assert refused.value.field == "email"
    assert not Invitation.objects.exists()


def test_signing_in_turns_the_invitations_into_memberships(
    club: Club, ana: User, ben: User
) -> None:
    other = services.club_create(name="Le Chien", owner=ana)
    services.invitation_create(club=club, email="ben@example.com", invited_by=ana)
    services.invitation_create(club=other, email="ben@example.com", invited_by=ana)

    memberships = services.invitations_accept(user=ben)

    assert {m.club for m in memberships} == {club, other}
    assert all(m.role == Membership.Role.MEMBER for m in memberships)
    assert not Invitation.objects.exists()


def test_signing_in_without_an_invitation_changes_nothing(club: Club, ben: User) -> None:
    assert services.invitations_accept(user=ben) == []
    assert not Membership.objects.filter(user=ben).exists()


def test_withdrawing_an_invitation_deletes_it(club: Club, ana: User) -> None:
    invitation = services.invitation_create(club=club, email="ben@example.com", invited_by=ana)
    services.invitation_withdraw(invitation=invitation)
    assert not Invitation.objects.exists()


def test_a_member_can_be_removed(club: Club, ben: User) -> None:
    membership = Membership.objects.create(club=club, user=ben)
    services.member_remove(membership=membership)
    assert not Membership.objects.filter(user=ben).exists()


def test_the_owner_cannot_be_removed(club: Club, ana: User) -> None:
    owner = Membership.objects.get(club=club, user=ana)
    with pytest.raises(ServiceError):
        services.member_remove(membership=owner)
    assert Membership.objects.filter(pk=owner.pk).exists()


def test_handing_over_ownership_leaves_one_owner(club: Club, ana: User, ben: User) -> None:
    membership = Membership.objects.create(club=club, user=ben)
    services.ownership_transfer(club=club, to=membership)
    roles = dict(Membership.objects.filter(club=club).values_list("user__email", "role"))
    assert roles == {"ana@example.com": "member", "ben@example.com": "owner"}


def test_ownership_cannot_go_to_a_member_of_another_club(club: Club, ana: User, ben: User) -> None:
    other = services.club_create(name="Le Chien", owner=ben)
    with pytest.raises(ServiceError):
        services.ownership_transfer(club=club, to=Membership.objects.get(club=other))
    assert Membership.objects.get(club=club, user=ana).is_owner


def test_player_names_are_unique_in_a_club_regardless_of_case(club: Club) -> None:
    services.player_add(club=club, name="Zoe")
    with pytest.raises(ServiceError) as refused:
        services.player_add(club=club, name="  ZOE ")
    assert refused.value.field == "name"
    assert club.players.count() == 1


def test_player_names_with_accents_are_unique_regardless_of_case(club: Club) -> None:
    services.player_add(club=club, name="Zoé")
    with pytest.raises(ServiceError):
        services.player_add(club=club, name="ZOÉ")


def test_the_same_player_name_may_be_in_two_clubs(club: Club, ben: User) -> None:
    other = services.club_create(name="Le Chien", owner=ben)
    services.player_add(club=club, name="Zoé")
    services.player_add(club=other, name="Zoé")
    assert Player.objects.filter(name="Zoé").count() == 2


def test_a_player_needs_a_name(club: Club) -> None:
    with pytest.raises(ServiceError):
        services.player_add(club=club, name="   ")


def test_renaming_a_player_tidies_the_spaces_and_allows_a_change_of_case(club: Club) -> None:
    player = services.player_add(club=club, name="zoé")
    services.player_rename(player=player, name="  Zoé   Martin ")
    player.refresh_from_db()
    assert player.name == "Zoé Martin"
    services.player_rename(player=player, name="ZOÉ MARTIN")
    player.refresh_from_db()
    assert player.name == "ZOÉ MARTIN"


def test_renaming_a_player_to_another_players_name_is_refused(club: Club) -> None:
    services.player_add(club=club, name="Zoé")
    player = services.player_add(club=club, name="Yves")
    with pytest.raises(ServiceError):
        services.player_rename(player=player, name="zoé")
    player.refresh_from_db()
    assert player.name == "Yves"


def test_retiring_and_bringing_back_a_player(club: Club) -> None:
    player = services.player_add(club=club, name="Zoé")
    services.player_retire(player=player)
    player.refresh_from_db()
    assert player.retired
    services.player_retire(player=player, retired=False)
    player.refresh_from_db()
    assert not player.retired


def test_a_player_can_be_linked_to_a_members_account(club: Club, ben: User) -> None:
    Membership.objects.create(club=club, user=ben)
    player = services.player_add(club=club, name="Benoît")
    services.player_update(player=player, name="Ben", user=ben)
    player.refresh_from_db()
    assert (player.name, player.user) == ("Ben", ben)
    services.player_update(player=player, name="Ben", user=None)
    player.refresh_from_db()
    assert player.user is None


def test_a_player_cannot_be_linked_to_someone_outside_the_club(club: Club, ben: User) -> None:
    player = services.player_add(club=club, name="Benoît")
    with pytest.raises(ServiceError) as refused:
        services.player_update(player=player, name="Ben", user=ben)
    assert refused.value.field == "user"
    player.refresh_from_db()
    assert (player.name, player.user) == ("Benoît", None)


def test_an_account_is_linked_to_one_player_of_a_club(club: Club, ana: User) -> None:
    first = services.player_add(club=club, name="Ana")
    second = services.player_add(club=club, name="Anna")
    services.player_update(player=first, name="Ana", user=ana)
    with pytest.raises(ServiceError) as refused:
        services.player_update(player=second, name="Anna", user=ana)
    assert refused.value.field == "user"
    assert Player.objects.get(pk=second.pk).user is None
