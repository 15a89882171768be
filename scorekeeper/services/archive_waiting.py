"""The archive waiting room: an uploaded archive kept in the database until its restore.

The owner's page reads an upload, shows its preview and keeps the archive here under a
token; "Restore" takes it back. Kept in the database (shared by every app server, nothing
on a server's disk), compact (the archive's JSON without its spaces, compressed with zlib),
``WAITING_PER_USER`` per account (a new upload drops the oldest), ``WAITING_TOTAL_BYTES``
for the whole site (beyond, an upload is refused until the oldest expire) and for
``WAITING_LIFETIME``; every upload and restore first deletes what has expired.

A token is taken exactly once: the restore locks its row, writes the club in the same
transaction and marks the row with it; a second "Restore" of the same token (a double
click, a retry, another worker) finds the club already made and writes nothing.
"""

from __future__ import annotations

import datetime as dt
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from scorekeeper.models import Club, WaitingArchive
from scorekeeper.services.archives import Archive, archive_import
from scorekeeper.services.common import ServiceError

TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
WAITING_LIFETIME = dt.timedelta(hours=1)
WAITING_PER_USER = 3
WAITING_MAX_BYTES = 8 * 1024 * 1024  # one archive, compressed (the upload's own cap)
WAITING_TOTAL_BYTES = 256 * 1024 * 1024  # every waiting archive of the site, compressed


class ArchiveGone(ServiceError):
    """The token is unknown, of another account, or expired."""


@dataclass(frozen=True)
class Restored:
    club: Club
    again: bool  # the token had been restored already: this is the club it made


def archive_waiting_cleanup(*, now: dt.datetime | None = None) -> int:
    """Delete the waiting archives that have expired; how many."""
    deleted, _by_model = WaitingArchive.objects.filter(
        expires_at__lte=now or timezone.now()
    ).delete()
    return deleted


def archive_wait(*, user: User, compact: bytes) -> str:
    """Keep ``compact`` (an archive's JSON, checked, without spaces) for ``user``; its token.

    Raises ``ServiceError`` when the site already holds ``WAITING_TOTAL_BYTES``.
    """
    content = zlib.compress(compact, 6)
    if len(content) > WAITING_MAX_BYTES:
        raise ServiceError(_("This file is too large (8 MB at most)."))
    now = timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one upload at a time
        archive_waiting_cleanup(now=now)
        mine = WaitingArchive.objects.filter(user=user, club=None).order_by("-created_at", "-pk")
        stale = list(mine.values_list("pk", flat=True)[WAITING_PER_USER - 1 :])
        WaitingArchive.objects.filter(pk__in=stale).delete()
        held = WaitingArchive.objects.aggregate(total=Sum("size"))["total"] or 0
        if held + len(content) > WAITING_TOTAL_BYTES:
            raise ServiceError(
                _("Too many archives are waiting to be restored right now: try again in an hour.")
            )
        row = WaitingArchive.objects.create(
            user=user,
            content=content,
            size=len(content),
            created_at=now,
            expires_at=now + WAITING_LIFETIME,
        )
    return row.token


def archive_restore(*, user: User, token: str, read: Callable[[bytes], Archive]) -> Restored:
    """The waiting archive of ``token`` as a new club owned by ``user``, exactly once.

    ``read`` checks the kept JSON into an ``Archive`` (a ScoringError leaves the archive
    waiting). Raises ``ArchiveGone`` for a token that is not ``user``'s or has expired.
    """
    if not TOKEN.fullmatch(token):  # never reaches the database (NUL, 2 kB of text...)
        raise ArchiveGone(_("This upload has expired: choose the file again."))
    now = timezone.now()
    with transaction.atomic():
        # The account first, as archive_wait takes it: then its waiting archive.
        User.objects.select_for_update().filter(pk=user.pk).first()
        row = (
            WaitingArchive.objects.select_for_update()
            .filter(token=token, user=user, expires_at__gt=now)
            .first()
        )
        if row is None:
            raise ArchiveGone(_("This upload has expired: choose the file again."))
        if row.club_id is not None:
            return Restored(club=Club.objects.get(pk=row.club_id), again=True)
        if row.size == 0:  # its club was made, then deleted
            raise ArchiveGone(_("This upload has expired: choose the file again."))
        archive = read(zlib.decompress(bytes(row.content)))
        club = archive_import(archive=archive, owner=user, restore_members=False)
        row.club = club
        row.content = b""
        row.size = 0
        row.save(update_fields=["club", "content", "size"])
    return Restored(club=club, again=False)
