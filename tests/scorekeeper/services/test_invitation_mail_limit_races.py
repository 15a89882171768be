"""The hourly limit of invitation mails to one address is exact under simultaneous sends.

Fifteen owners' sends at the same moment mail the address five times, never six. The
threaded test needs PostgreSQL (the second pass of .ci/run, or DATABASE_URL).
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import connection

from accounts.services import MAILS_PER_ADDRESS
from scorekeeper import services
from scorekeeper.models import Invitation, InvitationMail
from tests.factories import make_club, make_user
from tests.scorekeeper.services.test_deal_races import at_once

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (the second pass of .ci/run)"
)


def send(invitation_id: int) -> str:
    invitation = Invitation.objects.select_related("club", "invited_by").get(pk=invitation_id)
    try:
        services.invitation_mail_send(
            invitation=invitation,
            invited_by=invitation.invited_by,
            language="en",
            base_url="http://testserver/",
        )
    except services.ServiceError:
        return "refused"
    return "sent"


@postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("trial", range(3))
def test_fifteen_simultaneous_invitations_mail_the_address_five_times(trial: int) -> None:
    invitations = []
    for number in range(15):
        owner = make_user(f"owner{number}-{trial}@example.com", f"Owner {number}")
        club, _players = make_club(owner, name=f"Club {number}")
        invitations.append(
            services.invitation_create(club=club, email="zoe@example.com", invited_by=owner)
        )
    mail.outbox = []
    results, errors = at_once(*[lambda pk=inv.pk: send(pk) for inv in invitations])
    assert errors == []
    assert results.count("sent") == MAILS_PER_ADDRESS
    assert len(mail.outbox) == MAILS_PER_ADDRESS
    assert InvitationMail.objects.filter(email="zoe@example.com").count() == MAILS_PER_ADDRESS


@pytest.mark.django_db
def test_the_sixth_invitation_mail_of_the_hour_is_refused_and_says_the_invitation_works() -> None:
    results = []
    for number in range(MAILS_PER_ADDRESS + 1):
        owner = make_user(f"owner{number}@example.com", f"Owner {number}")
        club, _players = make_club(owner, name=f"Club {number}")
        invitation = services.invitation_create(
            club=club, email="zoe@example.com", invited_by=owner
        )
        results.append(send(invitation.pk))
    assert results == ["sent"] * MAILS_PER_ADDRESS + ["refused"]
