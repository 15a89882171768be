"""A restored archive: a copy named as such, its evenings closed, its history's authors only
members of the new club (an archive cannot borrow, or reveal, another account of the site)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import Client
from django.utils import timezone, translation

from scorekeeper import services
from scorekeeper.exchange import archive_read, archive_write
from scorekeeper.models import Club, DealChange, Evening
from tests.factories import make_user
from tests.scorekeeper.exchange.test_club_archive import full_club

pytestmark = pytest.mark.django_db


def with_history_by(text: str, email: str) -> str:
    """The archive with every history line's author replaced by ``email``."""
    data = json.loads(text)
    for evening in data["evenings"]:
        for game in evening["games"]:
            for deal in game["deals"]:
                for entry in deal.get("history", []):
                    entry["by"] = email
    return json.dumps(data)


def test_a_history_author_who_is_not_a_member_of_the_new_club_is_nobody() -> None:
    world = full_club()
    victim = make_user("victim@example.com", "Victor Secret")
    text = with_history_by(archive_write.dump_archive(world.club), victim.email)
    bob = make_user("bob@example.com", "Bob")
    club = services.archive_import(
        archive=archive_read.read_archive(text), owner=bob, restore_members=False
    )
    lines = DealChange.objects.filter(game__evening__club=club)
    assert lines.exists()
    assert not lines.exclude(by=None).exists()
    client = Client()
    client.force_login(bob)
    page = client.get(
        f"/evenings/{lines.first().game.evening_id}/", **{"HTTP_ACCEPT_LANGUAGE": "en"}
    )
    assert page.status_code == 200
    assert "Victor Secret" not in page.content.decode()


def test_the_uploader_named_in_the_history_is_still_its_author() -> None:
    world = full_club()
    bob = make_user("bob@example.com", "Bob")
    text = with_history_by(archive_write.dump_archive(world.club), bob.email)
    club = services.archive_import(
        archive=archive_read.read_archive(text), owner=bob, restore_members=False
    )
    assert set(
        DealChange.objects.filter(game__evening__club=club).values_list("by", flat=True)
    ) == {bob.pk}


def test_the_admins_restore_matches_authors_among_the_archived_members_only() -> None:
    world = full_club()
    outsider = make_user("outsider@example.com", "Out Sider")
    text = with_history_by(archive_write.dump_archive(world.club), outsider.email)
    club = services.archive_import(
        archive=archive_read.read_archive(text), owner=None, restore_members=True
    )
    assert not DealChange.objects.filter(game__evening__club=club).exclude(by=None).exists()


def test_a_restored_copy_is_named_as_one_and_its_evenings_are_closed() -> None:
    world = full_club()
    Evening.objects.filter(club=world.club).update(closed_at=None)  # open, as archived
    text = archive_write.dump_archive(world.club)
    bob = make_user("bob@example.com", "Bob")
    with translation.override("en"):
        club = services.archive_import(
            archive=archive_read.read_archive(text), owner=bob, restore_members=False
        )
    today = timezone.localdate()
    assert club.name == f"Les Bouts (restored {today.day} {today:%b})"
    assert Club.objects.filter(name="Les Bouts").count() == 1
    assert not Evening.objects.filter(club=club, closed_at=None).exists()


def test_a_long_club_name_keeps_its_restored_mark_within_the_name_field() -> None:
    name = services.archives.restored_name("X" * 80, dt.date(2026, 12, 1))
    assert len(name) <= 80 and name.endswith("(restored 1 Dec)")
