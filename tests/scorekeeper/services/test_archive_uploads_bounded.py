"""What one account can make the archive waiting room write is bounded, on disk too.

Round three's probe: one account uploading the same 8 MB file 200 times grew the table to
1,076 MB in 95 s. Uploads are counted per account and hour; the same file again is kept
once; an account keeps a bounded number of bytes (fewer when it is new); the site's room is
shared fairly. The disk test measures the table as the probe did, on PostgreSQL (the second
pass of .ci/run, or DATABASE_URL).
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.models import User
from scorekeeper.exchange import archive_write
from scorekeeper.models import WaitingArchive
from scorekeeper.services import archive_waiting
from tests.factories import make_club, make_user

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def archive_file(name: str = "Les Bouts", padding: int = 0) -> bytes:
    """A club's archive; ``padding`` random bytes (base64, hardly compressible) beside it."""
    owner = make_user(f"owner-{name.replace(' ', '')}@example.com", "Owner")
    club, _players = make_club(owner, name=name, players=("Ana", "Ben", "Chloé", "Dan"))
    data = json.loads(archive_write.dump_archive(club))
    if padding:
        data["padding"] = base64.b64encode(os.urandom(padding)).decode()
    return json.dumps(data).encode()


def account(email: str = "bob@example.com", *, days: int = 0) -> tuple[Client, User]:
    user = make_user(email, email.split("@")[0].title())
    if days:
        User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - dt.timedelta(days))
        user.refresh_from_db()
    client = Client()
    client.force_login(user)
    return client, user


def post(client: Client, content: bytes):
    file = SimpleUploadedFile("club.json", content, "application/json")
    return client.post("/clubs/restore/", {"archive-file": file}, **EN)


def token_of(answer) -> str:
    page = answer.content.decode()
    if 'name="archive-token" value="' not in page:
        return ""
    return page.split('name="archive-token" value="')[1].split('"')[0]


def waiting(user: User) -> list[str]:
    rows = WaitingArchive.objects.filter(user=user, club=None).order_by("created_at", "pk")
    return list(rows.values_list("token", flat=True))


@pytest.mark.django_db
def test_an_account_past_its_hourly_uploads_is_refused_and_told_when_to_come_back() -> None:
    client, _user = account()
    files = [archive_file(f"Club {n}") for n in range(archive_waiting.UPLOADS_PER_HOUR + 1)]
    answers = [post(client, content) for content in files]
    assert all(token_of(answer) for answer in answers[:-1])
    refused = answers[-1]
    assert refused.status_code == 429 and not token_of(refused)
    assert "in the last hour. Try again in 60 minutes." in refused.content.decode()
    other, _ = account("carl@example.com")
    assert token_of(post(other, files[0]))  # counted per account


@pytest.mark.django_db
def test_the_same_file_again_is_kept_once_under_the_same_token() -> None:
    client, user = account()
    content = archive_file()
    first = token_of(post(client, content))
    row = WaitingArchive.objects.get(token=first)
    row.expires_at = timezone.now() + dt.timedelta(minutes=5)
    row.save()
    again = token_of(post(client, content))
    assert again == first and waiting(user) == [first]
    assert WaitingArchive.objects.get(token=first).expires_at > timezone.now() + dt.timedelta(
        minutes=59
    )


@pytest.mark.django_db
def test_a_new_account_keeps_fewer_bytes_waiting_than_an_older_one(monkeypatch) -> None:
    one, two = archive_file("Club one"), archive_file("Club two")
    newcomer, new_user = account()
    post(newcomer, one)
    size = WaitingArchive.objects.get(user=new_user).size
    monkeypatch.setattr(archive_waiting, "WAITING_BYTES_NEW_USER", size * 3 // 2)
    monkeypatch.setattr(archive_waiting, "WAITING_BYTES_PER_USER", size * 3)
    newest = token_of(post(newcomer, two))
    assert waiting(new_user) == [newest]  # the older one made room
    regular, old_user = account("carl@example.com", days=2)
    kept = [token_of(post(regular, one)), token_of(post(regular, two))]
    assert waiting(old_user) == kept


@pytest.mark.django_db
def test_a_full_room_makes_space_for_an_account_holding_less_than_the_biggest(
    monkeypatch,
) -> None:
    one, two, three = (archive_file(f"Club {n}") for n in range(3))
    hoarder, hoarder_user = account("hoarder@example.com", days=2)
    first, second = token_of(post(hoarder, one)), token_of(post(hoarder, two))
    held = sum(WaitingArchive.objects.values_list("size", flat=True))
    monkeypatch.setattr(archive_waiting, "WAITING_TOTAL_BYTES", held + 10)
    newcomer, new_user = account()
    mine = token_of(post(newcomer, one))
    assert mine and waiting(new_user) == [mine]
    assert waiting(hoarder_user) == [second]  # its oldest, first, made room
    assert first not in waiting(hoarder_user)
    answer = post(hoarder, three)  # it would hold more than the newcomer: no room
    assert "Too many archives are waiting" in answer.content.decode()
    assert waiting(new_user) == [mine] and waiting(hoarder_user) == [second]


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (the second pass of .ci/run)"
)


def table_bytes() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_total_relation_size(%s)", [WaitingArchive._meta.db_table])
        return cursor.fetchone()[0]


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_one_account_uploading_a_large_file_again_and_again_leaves_the_table_small() -> None:
    content = archive_file(padding=768 * 1024)  # 1 MB of text, about 0.75 MB compressed
    client, user = account()
    before = table_bytes()
    answers = [post(client, content) for _ in range(30)]
    grown = table_bytes() - before
    # Round three's code wrote each upload anew: 30 times the archive (about 23 MB) on disk.
    assert grown < 3 * 800_000, f"the table grew by {grown / 1e6:.1f} MB"
    kept = WaitingArchive.objects.get(user=user).size
    assert kept > 700_000
    assert {token_of(answer) for answer in answers if token_of(answer)} == set(waiting(user))


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_different_large_files_from_one_account_grow_the_table_by_its_hourly_uploads_at_most():
    client, _user = account()
    before = table_bytes()
    for n in range(25):
        post(client, archive_file(f"Club {n}", padding=512 * 1024))
    grown = table_bytes() - before
    per_file = max(WaitingArchive.objects.values_list("size", flat=True))
    assert grown < (archive_waiting.UPLOADS_PER_HOUR + 2) * per_file, (
        f"grew by {grown / 1e6:.1f} MB"
    )
