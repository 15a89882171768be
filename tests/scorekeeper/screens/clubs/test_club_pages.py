"""The club pages for members and the owner: what they show, what each action does, and
that invalid input shows errors, saves nothing and keeps what was typed."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from scorekeeper import services
from scorekeeper.models import Club, Evening, Invitation, Membership, Player

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HTMX = {"HTTP_HX_REQUEST": "true", **EN}


@pytest.fixture
def ana() -> User:
    return User.objects.create_user("ana@example.com", display_name="Ana")


@pytest.fixture
def ben() -> User:
    return User.objects.create_user("ben@example.com", display_name="Ben")


@pytest.fixture
def club(ana: User, ben: User) -> Club:
    club = services.club_create(name="Les Excuses", owner=ana)
    Membership.objects.create(club=club, user=ben)
    return club


@pytest.fixture
def owner(client: Client, ana: User) -> Client:
    client.force_login(ana)
    return client


@pytest.fixture
def member(client: Client, ben: User) -> Client:
    client.force_login(ben)
    return client


def club_url(club: Club, name: str = "club", *more: int) -> str:
    return reverse(name, args=[club.pk, *more])


# --- Creating a club ------------------------------------------------------------------------


def test_the_new_club_page_shows_a_form(client: Client, ana: User) -> None:
    client.force_login(ana)
    response = client.get(reverse("club_new"), **EN)
    assert response.status_code == 200
    assert "New club" in response.text
    assert 'name="club-name"' in response.text


def test_creating_a_club_makes_the_creator_its_owner_and_opens_it(
    client: Client, ana: User
) -> None:
    client.force_login(ana)
    response = client.post(reverse("club_new"), {"club-name": "  Le Petit "})
    club = Club.objects.get()
    assert response.status_code == 302
    assert response.url == club_url(club)
    assert club.name == "Le Petit"
    assert Membership.objects.get(club=club, user=ana).is_owner


def test_a_club_without_a_name_is_not_created(client: Client, ana: User) -> None:
    client.force_login(ana)
    response = client.post(reverse("club_new"), {"club-name": "   "}, **EN)
    assert response.status_code == 200
    assert "This field is required." in response.text
    assert not Club.objects.exists()


def test_a_too_long_club_name_is_refused_and_kept_in_the_form(client: Client, ana: User) -> None:
    client.force_login(ana)
    typed = "Club " + "x" * 80
    response = client.post(reverse("club_new"), {"club-name": typed}, **EN)
    assert response.status_code == 200
    assert 'class="errorlist"' in response.text
    assert f'value="{typed}"' in response.text
    assert not Club.objects.exists()


# --- The club page ------------------------------------------------------------------------


def test_the_club_page_shows_members_players_invitations_and_evenings(
    owner: Client, club: Club, ana: User
) -> None:
    services.player_add(club=club, name="Zoe")
    services.player_retire(player=services.player_add(club=club, name="Yves"))
    services.invitation_create(club=club, email="dan@example.com", invited_by=ana)
    open_evening = Evening.objects.create(club=club, date=dt.date(2026, 11, 27))
    closed_evening = Evening.objects.create(
        club=club, date=dt.date(2026, 11, 20), closed_at=timezone.now()
    )

    response = owner.get(club_url(club), **EN)

    assert response.status_code == 200
    text = response.text
    assert "<h1>Les Excuses</h1>" in text
    assert "Ana" in text and "Ben" in text
    assert '<span class="badge badge-accent">owner</span>' in text
    assert "dan@example.com" in text
    assert "Zoe" in text and "1 retired player" in text and "Yves" in text
    assert reverse("evening", args=[open_evening.pk]) in text
    assert reverse("evening", args=[closed_evening.pk]) in text
    assert reverse("evening_new", args=[club.pk]) in text


def test_the_owner_sees_the_owners_controls(owner: Client, club: Club, ana: User) -> None:
    invitation = services.invitation_create(club=club, email="dan@example.com", invited_by=ana)
    ben = Membership.objects.get(club=club, user__email="ben@example.com")
    text = owner.get(club_url(club), **EN).text
    assert club_url(club, "invitation_withdraw", invitation.pk) in text
    assert club_url(club, "member_remove", ben.pk) in text
    assert club_url(club, "member_make_owner", ben.pk) in text
    assert club_url(club, "club_invite") in text
    assert club_url(club, "club_rename") in text
    assert club_url(club, "club_leave") not in text


def test_a_member_sees_neither_the_invitations_nor_the_owners_controls(
    member: Client, club: Club, ana: User
) -> None:
    """Pending invitations' addresses are for the owner only."""
    invitation = services.invitation_create(club=club, email="dan@example.com", invited_by=ana)
    text = member.get(club_url(club), **EN).text
    assert "dan@example.com" not in text
    assert "Pending invitations" not in text
    assert club_url(club, "invitation_withdraw", invitation.pk) not in text
    assert "/remove/" not in text and "/make-owner/" not in text
    assert club_url(club, "club_invite") not in text
    assert club_url(club, "club_rename") not in text
    assert club_url(club, "club_leave") in text
    assert club_url(club, "player_add") in text


def test_the_club_page_is_french_by_default(member: Client, club: Club) -> None:
    assert 'lang="fr"' in member.get(club_url(club)).text


# --- Renaming -----------------------------------------------------------------------------


def test_the_owner_renames_the_club(owner: Client, club: Club) -> None:
    response = owner.post(club_url(club, "club_rename"), {"club-name": "Le Petit"})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.name == "Le Petit"


def test_an_empty_name_leaves_the_club_as_it_was(owner: Client, club: Club) -> None:
    response = owner.post(club_url(club, "club_rename"), {"club-name": ""}, **EN)
    assert response.status_code == 200
    assert "This field is required." in response.text
    club.refresh_from_db()
    assert club.name == "Les Excuses"


# --- Invitations --------------------------------------------------------------------------


def test_the_owner_invites_an_address_and_an_email_goes_out(
    owner: Client, club: Club, ana: User
) -> None:
    response = owner.post(
        club_url(club, "club_invite"), {"invitation-email": "Dan@Example.com"}, follow=True, **EN
    )
    assert response.redirect_chain[-1][0] == club_url(club) + "#members"
    invitation = Invitation.objects.get(club=club)
    assert (invitation.email, invitation.invited_by) == ("dan@example.com", ana)
    assert "an e-mail is on its way" in response.text
    assert [m.to for m in mail.outbox] == [["dan@example.com"]]


def test_inviting_a_member_shows_the_error_and_keeps_the_address(owner: Client, club: Club) -> None:
    response = owner.post(
        club_url(club, "club_invite"), {"invitation-email": "ben@example.com"}, **EN
    )
    assert response.status_code == 200
    assert "ben@example.com is already a member." in response.text
    assert 'value="ben@example.com"' in response.text
    assert not Invitation.objects.exists()


def test_an_invalid_address_is_refused_and_kept(owner: Client, club: Club) -> None:
    response = owner.post(club_url(club, "club_invite"), {"invitation-email": "dan@"}, **EN)
    assert response.status_code == 200
    assert "Enter a valid email address." in response.text
    assert 'value="dan@"' in response.text
    assert not Invitation.objects.exists()


def test_the_owner_withdraws_an_invitation(owner: Client, club: Club, ana: User) -> None:
    invitation = services.invitation_create(club=club, email="dan@example.com", invited_by=ana)
    response = owner.post(club_url(club, "invitation_withdraw", invitation.pk))
    assert response.status_code == 302
    assert not Invitation.objects.exists()


# --- Members --------------------------------------------------------------------------------


def test_the_owner_removes_a_member(owner: Client, club: Club, ben: User) -> None:
    membership = Membership.objects.get(club=club, user=ben)
    response = owner.post(club_url(club, "member_remove", membership.pk))
    assert response.status_code == 302
    assert not Membership.objects.filter(pk=membership.pk).exists()


def test_the_owner_cannot_remove_himself(owner: Client, club: Club, ana: User) -> None:
    membership = Membership.objects.get(club=club, user=ana)
    response = owner.post(club_url(club, "member_remove", membership.pk), follow=True, **EN)
    assert "The owner cannot be removed" in response.text
    assert Membership.objects.get(pk=membership.pk).is_owner


def test_handing_over_ownership_asks_for_confirmation_first(
    owner: Client, club: Club, ben: User
) -> None:
    membership = Membership.objects.get(club=club, user=ben)
    response = owner.get(club_url(club, "member_make_owner", membership.pk), **EN)
    assert response.status_code == 200
    assert "Make Ben the owner" in response.text
    assert not Membership.objects.get(pk=membership.pk).is_owner


def test_handing_over_ownership_makes_the_old_owner_a_member(
    owner: Client, club: Club, ana: User, ben: User
) -> None:
    membership = Membership.objects.get(club=club, user=ben)
    response = owner.post(club_url(club, "member_make_owner", membership.pk))
    assert response.status_code == 302
    assert Membership.objects.get(club=club, user=ben).is_owner
    assert not Membership.objects.get(club=club, user=ana).is_owner
    # Ana's owner actions are gone with the ownership.
    assert owner.post(club_url(club, "club_rename"), {"club-name": "X"}).status_code == 403


def test_a_member_leaves_the_club(member: Client, club: Club, ben: User) -> None:
    response = member.post(club_url(club, "club_leave"))
    assert response.status_code == 302
    assert response.url == reverse("home")
    assert not Membership.objects.filter(club=club, user=ben).exists()
    assert member.get(club_url(club)).status_code == 404


def test_the_owner_cannot_leave_the_club(owner: Client, club: Club, ana: User) -> None:
    response = owner.post(club_url(club, "club_leave"), follow=True, **EN)
    assert "hand over ownership first" in response.text
    assert Membership.objects.get(club=club, user=ana).is_owner


# --- Players ------------------------------------------------------------------------------


def test_a_member_adds_a_player(member: Client, club: Club) -> None:
    response = member.post(club_url(club, "player_add"), {"player-name": " Zoe "})
    assert response.status_code == 302
    assert response.url == club_url(club) + "#players"
    assert list(club.players.values_list("name", flat=True)) == ["Zoe"]


def test_a_player_name_taken_in_another_case_is_refused_and_kept(
    member: Client, club: Club
) -> None:
    services.player_add(club=club, name="Zoe")
    response = member.post(club_url(club, "player_add"), {"player-name": "ZOE"}, **EN)
    assert response.status_code == 200
    assert "ZOE is already a player of this club." in response.text
    assert 'value="ZOE"' in response.text
    assert club.players.count() == 1


def test_adding_a_player_with_htmx_returns_the_players_section_alone(
    member: Client, club: Club
) -> None:
    response = member.post(club_url(club, "player_add"), {"player-name": "Zoe"}, **HTMX)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert response.text.lstrip().startswith('<section id="players"')
    assert "Zoe" in response.text
    assert "autofocus" in response.text  # ready for the next name
    assert club.players.filter(name="Zoe").exists()


def test_an_invalid_player_with_htmx_returns_the_section_with_the_error(
    member: Client, club: Club
) -> None:
    services.player_add(club=club, name="Zoe")
    response = member.post(club_url(club, "player_add"), {"player-name": "zoe"}, **HTMX)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert "zoe is already a player of this club." in response.text
    assert 'value="zoe"' in response.text
    assert club.players.count() == 1


def test_retiring_and_bringing_back_a_player(member: Client, club: Club) -> None:
    player = services.player_add(club=club, name="Zoe")
    assert member.post(club_url(club, "player_retire", player.pk)).status_code == 302
    assert Player.objects.get(pk=player.pk).retired
    assert member.post(club_url(club, "player_unretire", player.pk)).status_code == 302
    assert not Player.objects.get(pk=player.pk).retired


def test_retiring_a_player_with_htmx_returns_the_players_section(
    member: Client, club: Club
) -> None:
    player = services.player_add(club=club, name="Zoe")
    response = member.post(club_url(club, "player_retire", player.pk), **HTMX)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="players"')
    assert "1 retired player" in response.text
    assert "autofocus" not in response.text
    assert Player.objects.get(pk=player.pk).retired


def test_the_player_page_shows_the_name_and_the_members_to_link(member: Client, club: Club) -> None:
    player = services.player_add(club=club, name="Zoe")
    response = member.get(club_url(club, "player_edit", player.pk), **EN)
    assert response.status_code == 200
    assert 'value="Zoe"' in response.text
    assert ">Ana</option>" in response.text and ">Ben</option>" in response.text
    assert "No account" in response.text


def test_a_member_renames_a_player_and_links_it_to_an_account(
    member: Client, club: Club, ben: User
) -> None:
    player = services.player_add(club=club, name="Benoit")
    response = member.post(
        club_url(club, "player_edit", player.pk), {"name": "Ben", "user": str(ben.pk)}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.name, player.user) == ("Ben", ben)


def test_renaming_a_player_to_a_taken_name_keeps_what_was_typed(member: Client, club: Club) -> None:
    services.player_add(club=club, name="Zoe")
    player = services.player_add(club=club, name="Yves")
    response = member.post(
        club_url(club, "player_edit", player.pk), {"name": "zoe", "user": ""}, **EN
    )
    assert response.status_code == 200
    assert "zoe is already a player of this club." in response.text
    assert 'value="zoe"' in response.text
    assert "<h1>Yves" in response.text
    assert Player.objects.get(pk=player.pk).name == "Yves"


def test_a_player_cannot_be_linked_to_someone_outside_the_club(member: Client, club: Club) -> None:
    eve = User.objects.create_user("eve@example.com", display_name="Eve")
    player = services.player_add(club=club, name="Zoe")
    response = member.post(
        club_url(club, "player_edit", player.pk), {"name": "Eve", "user": str(eve.pk)}, **EN
    )
    assert response.status_code == 200
    assert "Select a valid choice." in response.text
    player.refresh_from_db()
    assert (player.name, player.user) == ("Zoe", None)


def test_an_account_already_linked_shows_the_error_and_saves_nothing(
    member: Client, club: Club, ben: User
) -> None:
    services.player_update(player=services.player_add(club=club, name="Ben"), name="Ben", user=ben)
    player = services.player_add(club=club, name="Benoit")
    response = member.post(
        club_url(club, "player_edit", player.pk), {"name": "Benny", "user": str(ben.pk)}, **EN
    )
    assert response.status_code == 200
    assert "This account is already linked to Ben." in response.text
    assert 'value="Benny"' in response.text
    player.refresh_from_db()
    assert (player.name, player.user) == ("Benoit", None)


@pytest.mark.parametrize("size", [1, 10])
def test_the_club_page_takes_the_same_few_queries_however_big_the_club(
    owner: Client, club: Club, ana: User, django_assert_max_num_queries, size: int
) -> None:
    for number in range(size):
        user = User.objects.create_user(f"member{number}@example.com", display_name=f"M{number}")
        Membership.objects.create(club=club, user=user)
        services.invitation_create(club=club, email=f"guest{number}@example.com", invited_by=ana)
        player = services.player_add(club=club, name=f"Player {number}")
        services.player_update(player=player, name=player.name, user=user)
        Evening.objects.create(club=club, date=dt.date(2026, 1, 1) + dt.timedelta(days=number))
    # The session, the user, the membership, then members, invitations, evenings, players,
    # and the current season's standings (the season, then its evenings' versions), and
    # the owner's join link.
    with django_assert_max_num_queries(10):
        response = owner.get(club_url(club))
    assert response.status_code == 200
