"""The archive waiting room: an uploaded archive kept in the database (compact, zlib) under
a token until its restore, for ``WAITING_LIFETIME``.

Bounded per account (``UPLOADS_PER_HOUR``, ``WAITING_PER_USER``, ``WAITING_BYTES_PER_USER``)
and for the site (``WAITING_TOTAL_BYTES``, shared fairly: a full room drops the biggest
holder's oldest archive). The same file again is kept once. A token is taken exactly once:
a second "Restore" finds the club already made.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.limits import LIMIT_WINDOW, count_one_at_a_time, minutes_until_free
from accounts.models import User
from scorekeeper.models import ArchiveUpload, Club, WaitingArchive, new_share_token
from scorekeeper.services.archives import Archive, archive_import
from scorekeeper.services.common import ServiceError

TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
WAITING_LIFETIME = dt.timedelta(hours=1)
WAITING_PER_USER = 3
WAITING_MAX_BYTES = 8 * 1024 * 1024  # one archive, compressed (the upload's own cap)
WAITING_TOTAL_BYTES = 256 * 1024 * 1024  # every waiting archive of the site, compressed
WAITING_BYTES_PER_USER = 3 * WAITING_MAX_BYTES  # an account's waiting archives, compressed
WAITING_BYTES_NEW_USER = WAITING_MAX_BYTES  # ... for an account younger than NEW_ACCOUNT_AGE
NEW_ACCOUNT_AGE = dt.timedelta(days=1)
UPLOADS_PER_HOUR = 10  # per account, counted before the file is read


class ArchiveGone(ServiceError):
    """The token is unknown, of another account, or expired."""


class UploadsLimited(ServiceError):
    """The account uploaded ``UPLOADS_PER_HOUR`` archives in the last hour."""

    status = 429


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


def archive_upload_count(*, user: User) -> None:
    """Count an upload of ``user``; ``UploadsLimited`` past ``UPLOADS_PER_HOUR`` an hour.

    Called before the file is read. Simultaneous uploads of one account count one after
    the other (an advisory lock on PostgreSQL).
    """
    with transaction.atomic():
        count_one_at_a_time(f"archive-upload:{user.pk}")
        now = timezone.now()
        since = now - LIMIT_WINDOW
        ArchiveUpload.objects.filter(user=user, uploaded_at__lt=since).delete()
        recent = list(
            ArchiveUpload.objects.filter(user=user)
            .order_by("uploaded_at")
            .values_list("uploaded_at", flat=True)
        )
        if len(recent) >= UPLOADS_PER_HOUR:
            minutes = minutes_until_free(recent[0], now)
            raise UploadsLimited(
                ngettext(
                    "Too many archives were uploaded from your account in the last hour. "
                    "Try again in %(minutes)d minute.",
                    "Too many archives were uploaded from your account in the last hour. "
                    "Try again in %(minutes)d minutes.",
                    minutes,
                )
                % {"minutes": minutes}
            )
        ArchiveUpload.objects.create(user=user, uploaded_at=now)


def _account_bytes(user: User, now: dt.datetime) -> int:
    """The bytes ``user`` may keep waiting: less for an account made in the last day."""
    if user.date_joined > now - NEW_ACCOUNT_AGE:
        return WAITING_BYTES_NEW_USER
    return WAITING_BYTES_PER_USER


def _held(freed: int) -> int:
    return (WaitingArchive.objects.aggregate(total=Sum("size"))["total"] or 0) - freed


def _make_room(user: User, size: int, mine: int, freed: int) -> None:
    """Free the site's room for ``size`` bytes by dropping the biggest holder's oldest
    archive while it holds more than ``user`` will (``mine``, ``freed``), or raise."""
    waiting = WaitingArchive.objects.filter(club=None)
    held = _held(freed)
    while held + size > WAITING_TOTAL_BYTES:
        biggest = (
            waiting.exclude(user=user)
            .values("user")
            .annotate(total=Sum("size"))
            .order_by("-total", "user")
            .first()
        )
        if biggest is None or biggest["total"] <= mine + size:
            raise ServiceError(
                _("Too many archives are waiting to be restored right now: try again in an hour.")
            )
        oldest = waiting.filter(user=biggest["user"]).order_by("created_at", "pk").first()
        if oldest is not None:
            # Re-checked under the row's lock: an archive restored meanwhile stays.
            waiting.filter(pk=oldest.pk).delete()
        held = _held(freed)


def archive_wait(*, user: User, compact: bytes) -> str:
    """Keep ``compact`` (an archive's JSON, checked, without spaces) for ``user``; its token.

    The same archive already waiting for ``user`` keeps its row and token (a new hour).
    Raises ``ServiceError`` when the site's room is full (see the module).
    """
    content = zlib.compress(compact, 6)
    if len(content) > WAITING_MAX_BYTES:
        raise ServiceError(_("This file is too large (8 MB at most)."))
    digest = hashlib.sha256(compact).hexdigest()
    now = timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one upload at a time
        archive_waiting_cleanup(now=now)
        mine = WaitingArchive.objects.filter(user=user, club=None)
        fresh = {"created_at": now, "expires_at": now + WAITING_LIFETIME}
        same = mine.filter(digest=digest).values_list("pk", "token").first()
        if same is not None:  # the same archive again: its content is not written again
            mine.filter(pk=same[0]).update(**fresh)
            return same[1]
        # The account's newest archives that fit beside this one stay; the others go.
        room, kept, spare = _account_bytes(user, now) - len(content), 0, []
        for pk, size in mine.order_by("-created_at", "-pk").values_list("pk", "size"):
            if len(spare) == 0 and kept < WAITING_PER_USER - 1 and size <= room:
                room, kept = room - size, kept + 1
            else:
                spare.append(pk)
        reused = spare.pop() if spare else None  # the oldest: rewritten in place
        mine.filter(pk__in=spare).delete()
        freed = mine.filter(pk=reused).values_list("size", flat=True).first() or 0
        _make_room(user, len(content), _account_bytes(user, now) - room - len(content), freed)
        token = new_share_token()
        row = {"content": content, "size": len(content), "digest": digest, "token": token}
        if reused is None or not mine.filter(pk=reused).update(**row, **fresh):
            WaitingArchive.objects.create(user=user, **row, **fresh)
    return token


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
