"""Club archives waiting for their preview to be confirmed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.models.clubs import Club, new_share_token


class WaitingArchive(models.Model):
    """An uploaded club archive waiting for its restore (an hour at most), compact and bounded
    (``services.archive_waiting``); once restored, ``club`` names the club and the content goes."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=64, unique=True, default=new_share_token)
    content = models.BinaryField(_("archive (compressed)"), blank=True)
    size = models.PositiveIntegerField(_("bytes kept"), default=0)
    digest = models.CharField(_("SHA-256 of the archive"), max_length=64, blank=True, default="")
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("waiting archive")
        verbose_name_plural = _("waiting archives")
        indexes = [models.Index(fields=["user", "created_at"], name="scorekeeper_waiting_user")]

    def __str__(self) -> str:
        return f"{self.user} archive ({self.size} bytes)"


class ArchiveUpload(models.Model):
    """One archive uploaded by an account: the uploads of the last hour are counted (rate
    limit); older rows are deleted by the account's next upload."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    uploaded_at = models.DateTimeField(_("uploaded"), default=timezone.now)

    class Meta:
        verbose_name = _("archive upload")
        verbose_name_plural = _("archive uploads")
        indexes = [models.Index(fields=["user", "uploaded_at"], name="scorekeeper_upload_user")]

    def __str__(self) -> str:
        return f"{self.user} upload {self.uploaded_at:%Y-%m-%d %H:%M}"
