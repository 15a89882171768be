"""Clubs, members, invitations and players."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.addresses import canonical_email
from accounts.models import User
from scorekeeper.models import Club, Invitation, Membership, Player, RemovedMember
from scorekeeper.scoring.club_figures import check_scale
from scorekeeper.scoring.inputs import clean_club_name, clean_licence, clean_name, name_key
from scorekeeper.services.common import ServiceError, evenings_of_touch


@transaction.atomic
def club_create(*, name: str, owner: User) -> Club:
    club = Club.objects.create(name=clean_club_name(name, "name"))
    Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    return club


@transaction.atomic
def club_rename(*, club: Club, name: str) -> Club:
    club.name = clean_club_name(name, "name")
    club.save(update_fields=["name"])
    return club


@transaction.atomic
def club_set_evening_points(*, club: Club, enabled: bool, scale: Sequence[int]) -> Club:
    """Turn the evening ranking points on or off, with their scale (ScoringError if refused:
    1 to 20 whole numbers, 0 or more, never rising)."""
    club.evening_points = enabled
    club.evening_points_scale = list(check_scale(tuple(scale)))
    club.save(update_fields=["evening_points", "evening_points_scale"])
    return club


@transaction.atomic
def invitation_create(*, club: Club, email: str, invited_by: User) -> Invitation:
    email = canonical_email(email)
    if club.memberships.filter(user__email=email).exists():
        raise ServiceError(_("%(email)s is already a member.") % {"email": email}, "email")
    invitation, _created = Invitation.objects.get_or_create(
        club=club, email=email, defaults={"invited_by": invited_by}
    )
    # The owner's invitation lets a removed member back (by the join link too).
    RemovedMember.objects.filter(club=club, user__email=email).delete()
    return invitation


@transaction.atomic
def invitation_withdraw(*, invitation: Invitation) -> None:
    invitation.delete()


@transaction.atomic
def invitations_accept(*, user: User) -> list[Membership]:
    """Turn the invitations waiting for this user's address into memberships (at each sign-in)."""
    memberships = []
    for invitation in (
        Invitation.objects.select_for_update().filter(email=user.email).order_by("pk")
    ):
        membership, _created = Membership.objects.get_or_create(
            club=invitation.club, user=user, defaults={"role": Membership.Role.MEMBER}
        )
        memberships.append(membership)
        invitation.delete()
    return memberships


def _membership_end(membership: Membership) -> None:
    # The player keeps its name and scores; it is simply no longer that person's account.
    Player.objects.filter(club_id=membership.club_id, user_id=membership.user_id).update(user=None)
    membership.delete()


@transaction.atomic
def member_remove(*, membership: Membership) -> None:
    """The owner removes a member: the club's join link no longer lets that account in (an
    invitation lets it back)."""
    if membership.is_owner:
        raise ServiceError(_("The owner cannot be removed; hand over ownership first."))
    RemovedMember.objects.get_or_create(club_id=membership.club_id, user_id=membership.user_id)
    _membership_end(membership)


@transaction.atomic
def member_leave(*, membership: Membership) -> None:
    """A member leaves of their own accord: the club's join link lets them back in. A removal
    by the owner that came before stays (``RemovedMember`` is not touched)."""
    if membership.is_owner:
        raise ServiceError(_("The owner cannot leave the club; hand over ownership first."))
    _membership_end(membership)


@transaction.atomic
def ownership_transfer(*, club: Club, to: Membership) -> None:
    if to.club_id != club.pk:
        raise ServiceError(_("That person is not a member of this club."))
    if to.is_owner:
        return
    club.memberships.filter(role=Membership.Role.OWNER).update(role=Membership.Role.MEMBER)
    to.role = Membership.Role.OWNER
    to.save(update_fields=["role"])


# --- Players --------------------------------------------------------------------------


def player_named(club: Club, name: str, *, exclude: Player | None = None) -> Player | None:
    """The club's player who has this name, case and Unicode form aside (``name_key``)."""
    # Compared in Python: SQLite's LOWER() folds ASCII letters only (Zoé, ZOÉ).
    others = club.players.exclude(pk=exclude.pk) if exclude is not None else club.players.all()
    key = name_key(name)
    return next((p for p in others.only("pk", "name") if name_key(p.name) == key), None)


def _taken(name: str) -> ServiceError:
    return ServiceError(_("%(name)s is already a player of this club.") % {"name": name}, "name")


def _check_player_name(club: Club, name: str, exclude: Player | None = None) -> str:
    """The name by the rules of every name (``scoring.inputs.clean_name``; ScoringError if
    against them), refused when another player of the club has it."""
    if not name.strip():
        raise ServiceError(_("A player needs a name."), "name")
    name = clean_name(name, "name")
    if player_named(club, name, exclude=exclude) is not None:
        raise _taken(name)
    return name


def player_create(*, club: Club, name: str, user: User | None = None) -> Player:
    """A new player of a checked name, in a savepoint: when another request made a player of
    that name a moment ago, the database's constraint refuses it (IntegrityError), caught
    here. Call within a transaction."""
    try:
        with transaction.atomic():
            return Player.objects.create(club=club, name=name, user=user)
    except IntegrityError:
        raise _taken(name) from None


@transaction.atomic
def player_add(*, club: Club, name: str, user: User | None = None) -> Player:
    return player_create(club=club, name=_check_player_name(club, name), user=user)


@transaction.atomic
def player_rename(*, player: Player, name: str) -> Player:
    player.name = _check_player_name(player.club, name, exclude=player)
    player.save(update_fields=["name"])
    evenings_of_touch(player)  # the sheets that show the name change too
    return player


@transaction.atomic
def player_retire(*, player: Player, retired: bool = True) -> Player:
    player.retired = retired
    player.save(update_fields=["retired"])
    return player


@transaction.atomic
def player_update(
    *, player: Player, name: str, user: User | None, licence: str | None = None
) -> Player:
    """Rename a player, link it to a member's account (or to none), and set its federation
    licence number (None: unchanged; "": none).

    An account can be linked to one player of a club, and only to a member's.
    """
    player = player_rename(player=player, name=name)
    if user is not None:
        if not player.club.memberships.filter(user=user).exists():
            raise ServiceError(_("That person is not a member of this club."), "user")
        linked = player.club.players.filter(user=user).exclude(pk=player.pk).first()
        if linked is not None:
            raise ServiceError(
                _("This account is already linked to %(name)s.") % {"name": linked.name}, "user"
            )
    licence = clean_licence(licence, "licence") if licence is not None else player.licence
    changed = licence != player.licence
    player.user, player.licence = user, licence
    player.save(update_fields=["user", "licence"])
    if changed:  # the rankings that show it follow (their keys hold the evenings' versions)
        evenings_of_touch(player)
    return player
