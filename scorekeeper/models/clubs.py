"""Clubs: their members, invitations, join links and removed members, and their players."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.scoring.rules import HouseRules, rules_from_data


def default_points_scale() -> list[int]:
    """Evening ranking points by place, 1st first: the usual 10, 6, 4, 2, 1."""
    return [10, 6, 4, 2, 1]


class Club(models.Model):
    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    # Evening ranking points: off unless the owner turns them on; points by place that night.
    evening_points = models.BooleanField(_("evening ranking points"), default=False)
    evening_points_scale = models.JSONField(
        _("points by place"), default=default_points_scale, blank=True
    )
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="clubs"
    )
    # The house rules new evenings start with: HouseRules.to_data() ({} = the FFT rules).
    rules = models.JSONField(_("rules of the club"), default=dict, blank=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def house_rules(self) -> HouseRules:
        return rules_from_data(self.rules)


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once_per_club"),
            models.UniqueConstraint(
                fields=["club"], condition=models.Q(role="owner"), name="membership_one_owner"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"

    @property
    def is_owner(self) -> bool:
        return self.role == self.Role.OWNER


class Invitation(models.Model):
    """An e-mail address invited to a club; it becomes a membership when that address signs in."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("e-mail address"))
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(fields=["club", "email"], name="invitation_once_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.email} → {self.club}"


class Player(models.Model):
    """A name in a club's score sheets; linked to an account only if its owner has one."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("account"),
    )
    retired = models.BooleanField(_("retired"), default=False)
    # The federation's licence number, optional: letters and digits (scoring.inputs.clean_licence).
    licence = models.CharField(_("licence number"), max_length=20, blank=True, default="")
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["retired", Lower("name"), "pk"]
        constraints = [
            models.UniqueConstraint("club", Lower("name"), name="player_name_once_per_club"),
        ]

    def __str__(self) -> str:
        return self.name


def new_share_token() -> str:
    return secrets.token_urlsafe(24)


class JoinLink(models.Model):
    """A club's link that makes whoever opens it and signs in a member, until it expires; a new
    one revokes the old."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_links")
    token = models.CharField(max_length=64, unique=True, default=new_share_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("join link")
        verbose_name_plural = _("join links")

    def __str__(self) -> str:
        return f"{self.club} join link"

    @classmethod
    def usable(cls) -> models.QuerySet[JoinLink]:
        return cls.objects.filter(revoked_at=None, expires_at__gt=timezone.now())


class InvitationMail(models.Model):
    """An invitation mail sent: counted for the hourly limits, like the sign-in mails."""

    email = models.EmailField(_("e-mail address"))
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    sent_at = models.DateTimeField(_("sent"), default=timezone.now)

    class Meta:
        verbose_name = _("invitation mail")
        verbose_name_plural = _("invitation mails")
        indexes = [
            models.Index(fields=["email", "sent_at"]),
            models.Index(fields=["sent_by", "sent_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.email} {self.sent_at:%Y-%m-%d %H:%M}"


class RemovedMember(models.Model):
    """An account the owner removed: the join link no longer lets it in; an invitation from the
    owner does (and forgets this row)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="removed_members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    removed_at = models.DateTimeField(_("removed"), default=timezone.now)

    class Meta:
        verbose_name = _("removed member")
        verbose_name_plural = _("removed members")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="scorekeeper_removed_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} removed from {self.club}"


class CostlyAction(models.Model):
    """An action that makes the server compute much, by an account: counted for its hourly
    limit (``services.costly``), kept for an hour."""

    class Kind(models.TextChoices):
        SEATING_SEARCH = "seating_search", _("search for a better seating")
        OLD_EVENING_CHANGE = "old_evening_change", _("change to an earlier evening")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=24, choices=Kind)
    at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("costly action")
        verbose_name_plural = _("costly actions")
        indexes = [models.Index(fields=["user", "kind", "at"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.user_id} {self.at:%Y-%m-%d %H:%M}"
