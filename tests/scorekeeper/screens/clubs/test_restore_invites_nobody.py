"""An uploaded archive invites nobody: its addresses are the uploader's to write, and an
invitation would make whoever signs in with one a member of the uploader's club."""

from __future__ import annotations

import json

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scorekeeper import services
from scorekeeper.exchange import archive_write
from scorekeeper.models import Club, Invitation, Membership
from tests.factories import make_club, make_user

pytestmark = pytest.mark.django_db


def test_a_crafted_archive_naming_a_hundred_addresses_invites_none_of_them(
    client: Client,
) -> None:
    club, _players = make_club()
    data = json.loads(archive_write.dump_archive(club))
    data["invitations"] = [{"email": f"target{i}@example.com"} for i in range(60)]
    data["members"] = [{"email": f"member{i}@example.com", "role": "member"} for i in range(40)]
    uploader = make_user("mallory@example.com", "Mallory")
    client.force_login(uploader)
    upload = SimpleUploadedFile("club.json", json.dumps(data).encode(), "application/json")
    page = client.post("/clubs/restore/", {"archive-file": upload}).content.decode()
    token = page.split('name="archive-token" value="')[1].split('"')[0]
    answer = client.post("/clubs/restore/", {"archive-token": token})
    restored = Club.objects.exclude(pk=club.pk).get()
    assert answer.status_code == 302 and answer["Location"] == f"/clubs/{restored.pk}/"
    assert not Invitation.objects.filter(club=restored).exists()
    assert list(restored.memberships.values_list("user__email", flat=True)) == [uploader.email]
    assert mail.outbox == []
    # Whoever signs in with one of those addresses later is a member of no club of theirs.
    target = make_user("target7@example.com", "Target")
    services.invitations_accept(user=target)
    assert not Membership.objects.filter(user=target).exists()
