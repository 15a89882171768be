"""People who sign in. The e-mail address is the identifier; there is no password."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.auth.models import PermissionsMixin
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.addresses import UnusableAddress, canonical_email


def unusable_address_message() -> str:
    return str(
        _(
            "This address cannot be used: it holds an invisible character, or its domain "
            "cannot be written in the standard way. Type it again by hand."
        )
    )


def display_name_from_email(email: str) -> str:
    """A first guess at a display name: the part before the @, tidied."""
    local = email.strip().lower().split("@", 1)[0]
    words = local.replace(".", " ").replace("_", " ").replace("-", " ").split()
    return " ".join(word.capitalize() for word in words)[:100] or local[:100]


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def get_by_natural_key(self, username: str | None) -> User:
        try:
            email = canonical_email(username or "")
        except UnusableAddress:
            raise self.model.DoesNotExist from None
        return self.get(email=email)

    def create_user(self, email: str, display_name: str = "", **extra: Any) -> User:
        if not email:
            raise ValueError("An e-mail address is required")
        password = extra.pop("password", None)
        user = self.model(email=canonical_email(email), display_name=display_name, **extra)
        user.set_password(password or None)  # None (no password, or ""): an unusable one
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, display_name: str = "", **extra: Any) -> User:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self.create_user(email, display_name, **extra)


class User(AbstractBaseUser, PermissionsMixin):
    email = models.EmailField(_("e-mail address"), max_length=254, unique=True)
    display_name = models.CharField(_("display name"), max_length=100, blank=True)
    is_staff = models.BooleanField(_("staff"), default=False)
    is_active = models.BooleanField(_("active"), default=True)
    date_joined = models.DateTimeField(_("joined"), default=timezone.now)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(Lower("email"), name="accounts_user_email_ci_unique"),
        ]

    def __str__(self) -> str:
        return self.display_name or self.email

    def clean(self) -> None:
        super().clean()
        try:
            self.email = canonical_email(self.email)
        except UnusableAddress:
            raise ValidationError({"email": unusable_address_message()}) from None

    def get_full_name(self) -> str:
        return self.display_name or self.email

    def get_short_name(self) -> str:
        return self.display_name or self.email.split("@", 1)[0]


#: How long the code of a sign-in mail works, in the browser that asked for it.
CODE_LIFETIME = dt.timedelta(minutes=15)
#: How long the link of a sign-in mail works: as long as the hourly limit that may refuse
#: a new mail, so that a link received in the last hour always still signs in.
LINK_LIFETIME = dt.timedelta(hours=1)


class LoginCode(models.Model):
    """One sign-in mail: a 6-digit code and a link token, both stored hashed. The code works in
    the browser that asked until ``expires_at`` unless voided (``code_voided_at``, ``voided_at``);
    the link works anywhere for ``LINK_LIFETIME`` unless the mail is used or voided.
    """

    email = models.EmailField(_("e-mail address"), max_length=254)
    code_hash = models.CharField(_("code (hashed)"), max_length=64)
    link_token_hash = models.CharField(_("link token (hashed)"), max_length=64, unique=True)
    browser_hash = models.CharField(_("asking browser (hashed)"), max_length=64)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    attempts = models.PositiveSmallIntegerField(_("wrong codes"), default=0)
    used_at = models.DateTimeField(_("used"), null=True, blank=True)
    voided_at = models.DateTimeField(_("voided"), null=True, blank=True)
    code_voided_at = models.DateTimeField(_("code voided"), null=True, blank=True)

    class Meta:
        verbose_name = _("sign-in code")
        verbose_name_plural = _("sign-in codes")
        ordering = ["-pk"]
        indexes = [models.Index(fields=["email", "-id"], name="accounts_logincode_email")]

    def __str__(self) -> str:
        return f"{self.email} ({self.created_at:%Y-%m-%d %H:%M})"

    def link_usable_at(self, moment: dt.datetime) -> bool:
        """Whether the link of the mail still works (anywhere)."""
        return self.used_at is None and self.voided_at is None and moment < self.link_expires_at

    @property
    def link_expires_at(self) -> dt.datetime:
        return self.created_at + LINK_LIFETIME


class LoginRequest(models.Model):
    """One request for a sign-in mail, kept for the hourly limits (shared by all processes)."""

    email = models.EmailField(_("e-mail address"), max_length=254)
    ip = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    mail_sent = models.BooleanField(_("mail sent"), default=False)

    class Meta:
        verbose_name = _("sign-in request")
        verbose_name_plural = _("sign-in requests")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["email", "created_at"], name="accounts_loginreq_email"),
            models.Index(fields=["ip", "created_at"], name="accounts_loginreq_ip"),
        ]

    def __str__(self) -> str:
        return f"{self.email} from {self.ip or '?'} ({self.created_at:%Y-%m-%d %H:%M})"
