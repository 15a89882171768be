"""The archive waiting room: an upload waits compact, bounded and briefly, and is restored once.

A padded upload (valid JSON full of spaces) waits as its compressed compact form; an account
keeps ``WAITING_PER_USER`` at most and the site ``WAITING_TOTAL_BYTES`` (the bounds in bytes
and uploads: test_archive_uploads_bounded.py); nothing is written
to a server's disk; an expired upload is deleted by the next one. Two confirms of one token
(a double click, a retry, two workers) make one club. The threaded tests need PostgreSQL's
row locks (the second pass of .ci/run, or DATABASE_URL).
"""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.utils import timezone

from scorekeeper import services
from scorekeeper.exchange import archive_read, archive_write
from scorekeeper.models import Club, WaitingArchive
from scorekeeper.services import archive_waiting
from tests.factories import make_club, make_user
from tests.scorekeeper.services.test_deal_races import at_once

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (the second pass of .ci/run)"
)
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def archive_text(name: str = "Les Bouts") -> str:
    owner = make_user(f"owner-{name.replace(' ', '')}@example.com", "Owner")
    club, _players = make_club(owner, name=name, players=("Ana", "Ben", "Chloé", "Dan"))
    return archive_write.dump_archive(club)


def upload(client: Client, content: bytes) -> str:
    """Post the file; the preview's token ("" when refused)."""
    file = SimpleUploadedFile("club.json", content, "application/json")
    page = client.post("/clubs/restore/", {"archive-file": file}, **EN).content.decode()
    if 'name="archive-token" value="' not in page:
        return ""
    return page.split('name="archive-token" value="')[1].split('"')[0]


def signed_in(email: str = "bob@example.com") -> tuple[Client, object]:
    user = make_user(email, email.split("@")[0].title())
    client = Client()
    client.force_login(user)
    return client, user


@pytest.mark.django_db
def test_a_padded_upload_waits_compact_and_compressed_not_as_sent(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    text = archive_text()
    padded = text.replace("\n", "\n" + " " * 40_000).encode()  # still valid JSON
    assert len(padded) > 1_000_000
    client, user = signed_in()
    token = upload(client, padded)
    row = WaitingArchive.objects.get(token=token, user=user)
    assert row.size == len(bytes(row.content)) < len(text.encode()) / 2
    assert row.expires_at - row.created_at == dt.timedelta(hours=1)
    assert list(Path(tmp_path).iterdir()) == []  # nothing on the server's disk


@pytest.mark.django_db
def test_an_account_keeps_a_few_uploads_waiting_the_newest(monkeypatch) -> None:
    texts = [
        archive_text(f"Club {n}").encode() for n in range(archive_waiting.WAITING_PER_USER + 2)
    ]
    client, user = signed_in()
    tokens = [upload(client, text) for text in texts]
    kept = set(WaitingArchive.objects.filter(user=user).values_list("token", flat=True))
    assert kept == set(tokens[-archive_waiting.WAITING_PER_USER :])
    answer = client.post("/clubs/restore/", {"archive-token": tokens[0]}, **EN)
    assert "expired" in answer.content.decode()
    assert Club.objects.count() == len(texts)


@pytest.mark.django_db
def test_the_site_refuses_uploads_past_its_total_and_says_so(monkeypatch) -> None:
    text = archive_text().encode()
    client, _user = signed_in()
    assert upload(client, text)
    held = WaitingArchive.objects.get().size
    monkeypatch.setattr(archive_waiting, "WAITING_TOTAL_BYTES", held * 2 - 1)
    other, _ = signed_in("carl@example.com")
    file = SimpleUploadedFile("club.json", text, "application/json")
    page = other.post("/clubs/restore/", {"archive-file": file}, **EN).content.decode()
    assert "Too many archives are waiting" in page
    assert WaitingArchive.objects.count() == 1


@pytest.mark.django_db
def test_an_expired_upload_is_deleted_by_the_next_and_cannot_be_restored() -> None:
    text = archive_text().encode()
    client, _user = signed_in()
    old = upload(client, text)
    WaitingArchive.objects.filter(token=old).update(expires_at=timezone.now())
    assert (
        "expired" in client.post("/clubs/restore/", {"archive-token": old}, **EN).content.decode()
    )
    other, _ = signed_in("carl@example.com")
    upload(other, text)
    assert not WaitingArchive.objects.filter(token=old).exists()
    assert Club.objects.count() == 1


@pytest.mark.django_db
def test_a_token_restores_only_for_the_account_that_uploaded_it() -> None:
    client, _user = signed_in()
    token = upload(client, archive_text().encode())
    thief, thief_user = signed_in("eve@example.com")
    assert (
        "expired" in thief.post("/clubs/restore/", {"archive-token": token}, **EN).content.decode()
    )
    with pytest.raises(services.ArchiveGone):
        services.archive_restore(user=thief_user, token=token, read=archive_read.read_kept)
    assert Club.objects.count() == 1


@pytest.mark.django_db
def test_a_second_confirm_leads_to_the_club_the_first_made() -> None:
    client, user = signed_in()
    token = upload(client, archive_text().encode())
    first = services.archive_restore(user=user, token=token, read=archive_read.read_kept)
    second = services.archive_restore(user=user, token=token, read=archive_read.read_kept)
    assert (first.again, second.again) == (False, True)
    assert first.club == second.club and Club.objects.count() == 2
    assert WaitingArchive.objects.get(token=token).size == 0  # the content is dropped


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_confirms_of_one_token_at_the_same_moment_make_one_club() -> None:
    client, user = signed_in()
    token = upload(client, archive_text().encode())

    def confirm() -> int:
        browser = Client()
        browser.force_login(user)
        return browser.post("/clubs/restore/", {"archive-token": token}).status_code

    results, errors = at_once(*[confirm] * 4)
    assert errors == [] and results == [302] * 4
    assert Club.objects.count() == 2


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_four_accounts_confirming_at_once_twice_each_make_four_clubs_and_no_error() -> None:
    text = archive_text().encode()
    people = [signed_in(f"p{index}@example.com") for index in range(4)]
    tokens = [upload(client, text) for client, _user in people]

    def confirm(user, token) -> int:
        browser = Client()
        browser.force_login(user)
        return browser.post("/clubs/restore/", {"archive-token": token}).status_code

    actions = [
        (lambda u=user, t=token: confirm(u, t))
        for (_client, user), token in zip(people, tokens, strict=True)
        for _twice in range(2)
    ]
    results, errors = at_once(*actions)
    assert errors == [] and results == [302] * 8
    assert Club.objects.count() == 5


@pytest.mark.django_db
def test_a_planted_link_in_the_temporary_folder_receives_nothing(monkeypatch, tmp_path) -> None:
    shared = tmp_path / "world-writable"
    shared.mkdir(mode=0o777)
    (tmp_path / "tmp").mkdir()
    (tmp_path / "tmp" / "scorekeeper-archives").symlink_to(shared)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    client, _user = signed_in()
    token = upload(client, archive_text().encode())
    assert token
    assert list(shared.iterdir()) == []
    assert client.post("/clubs/restore/", {"archive-token": token}).status_code == 302
