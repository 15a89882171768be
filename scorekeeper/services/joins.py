"""Joining a club: the owner's join link, and invitation mails (rate-limited like sign-in mails)."""

from __future__ import annotations

import datetime as dt
import logging
from urllib.parse import urlencode

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.limits import LIMIT_WINDOW, MAILS_PER_ADDRESS, count_one_at_a_time
from accounts.models import User
from scorekeeper.models import Club, Invitation, InvitationMail, JoinLink, Membership, RemovedMember
from scorekeeper.services.common import ServiceError

logger = logging.getLogger(__name__)

JOIN_LINK_LIFETIME = dt.timedelta(days=7)
# An owner may mail this many invitations an hour (the address limit is the sign-in mails').
INVITATION_MAILS_PER_SENDER = 20


@transaction.atomic
def join_link_create(*, club: Club, created_by: User) -> JoinLink:
    """A new join link for the club; the one it had stops working."""
    now = timezone.now()
    JoinLink.objects.select_for_update().filter(club=club, revoked_at=None).update(revoked_at=now)
    return JoinLink.objects.create(
        club=club, created_by=created_by, created_at=now, expires_at=now + JOIN_LINK_LIFETIME
    )


@transaction.atomic
def join_link_revoke(*, club: Club) -> None:
    JoinLink.objects.filter(club=club, revoked_at=None).update(revoked_at=timezone.now())


@transaction.atomic
def join_with_link(*, token: str, user: User) -> Membership:
    """Make ``user`` a member of the club of a usable link (a member already stays as is)."""
    # The link alone is locked (of "self"): not its club, which comes before it in the order.
    link = (
        JoinLink.usable()
        .select_for_update(of=("self",))
        .select_related("club")
        .filter(token=token)
        .first()
    )
    if link is None:
        raise ServiceError(_("This join link no longer works: ask the club's owner for a new one."))
    if join_refused(club=link.club, user=user):
        raise ServiceError(removed_text())
    membership, _created = Membership.objects.get_or_create(
        club=link.club, user=user, defaults={"role": Membership.Role.MEMBER}
    )
    Invitation.objects.filter(club=link.club, email=user.email).delete()
    return membership


def join_refused(*, club: Club, user: User) -> bool:
    """Whether the owner removed ``user`` from the club (the join link does not let them in)."""
    return RemovedMember.objects.filter(club=club, user_id=user.pk).exists()


def removed_text() -> str:
    return _(
        "The owner removed you from this club, so its join link does not let you in. Ask "
        "the owner to invite you again: their invitation lets you back."
    )


def invitation_mail_send(
    *, invitation: Invitation, invited_by: User, language: str, base_url: str
) -> None:
    """Mail the invitation in ``language``, or raise ``ServiceError`` (nothing sent) past the
    hourly limits, per address and per owner, or when the mail fails."""
    with transaction.atomic():
        count_one_at_a_time(f"invitation:{invitation.email}", f"inviter:{invited_by.pk}")
        now = timezone.now()  # after the wait: the moment this send is counted at
        since = now - LIMIT_WINDOW
        to_address = InvitationMail.objects.filter(email=invitation.email, sent_at__gte=since)
        from_sender = InvitationMail.objects.filter(sent_by=invited_by, sent_at__gte=since)
        if (
            to_address.count() >= MAILS_PER_ADDRESS
            or from_sender.count() >= INVITATION_MAILS_PER_SENDER
        ):
            raise ServiceError(
                _(
                    "Too many invitation mails in the last hour: none was sent. The "
                    "invitation still works when they sign in with this address."
                )
            )
        record = InvitationMail.objects.create(
            email=invitation.email, sent_by=invited_by, sent_at=now
        )
    next_url = reverse("club", args=[invitation.club_id])
    link = base_url.rstrip("/") + reverse("accounts:login") + "?" + urlencode({"next": next_url})
    context = {
        "club": invitation.club.name,
        "inviter": str(invited_by),
        "email": invitation.email,
        "link": link,
    }
    try:
        with translation.override(language):
            subject = " ".join(
                render_to_string("scorekeeper/clubs/email/invitation_subject.txt", context).split()
            )
            body = render_to_string("scorekeeper/clubs/email/invitation_body.txt", context)
        message = EmailMultiAlternatives(
            subject=subject,
            body=body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[invitation.email],
            headers={"Content-Language": language},
        )
        message.send()
    except Exception:  # SMTP errors come as several types (smtplib, socket, ssl)
        logger.exception("The invitation mail to %s could not be sent", invitation.email)
        InvitationMail.objects.filter(pk=record.pk).delete()
        raise ServiceError(
            _("The e-mail could not be sent. The invitation still works when they sign in.")
        ) from None
