"""Crafted files: a huge number, an archive inviting thousands, a CSV with one broken byte."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from scorekeeper.exchange import archive_read, archive_write, sheet_import
from scorekeeper.exchange.archive_check import ARCHIVE_MAX_INVITATIONS
from scorekeeper.exchange.error_text import error_text
from scorekeeper.models import Player
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.sheet import load_sheet_text
from tests.factories import make_club, make_user

pytestmark = pytest.mark.django_db

CSV = (
    "Evening date,Place,Game,Deal,Kind,Dealer,Taker,Partner,Contract,Bouts,Points,"
    "Petit au bout,Poignées,Chelem,Stakes,Result,Ana,Ben,Zoé,Dan\r\n"
    "2025-01-10,Café,1,1,paper,,,,,,,,,,,,60,-20,-20,-20\r\n"
)


def archive_data() -> dict:
    owner = make_user("owner@example.com", "Owner")
    club, _players = make_club(owner, players=("Ana", "Ben", "Chloé", "Dan"))
    return json.loads(archive_write.dump_archive(club))


def test_a_5000_digit_number_is_named_as_such_not_as_deep_nesting() -> None:
    data = archive_data()
    text = json.dumps(data).replace('"version": 1', '"version": ' + "9" * 5000)
    with pytest.raises(ScoringError) as caught:
        archive_read.read_archive(text)
    assert caught.value.code == "json_number"
    with translation.override("en"):
        assert "a number has more than 4300 digits" in archive_read.refusal_text(caught.value)


def test_an_archive_and_a_sheet_read_json_by_the_same_rules() -> None:
    text = json.dumps(archive_data())
    with pytest.raises(ScoringError) as caught:
        archive_read.read_archive(text.replace("{", '{"format": 0, ', 1))  # a key twice
    assert (caught.value.field, caught.value.code) == ("archive", "json_key_twice")
    with pytest.raises(ScoringError) as caught:
        load_sheet_text('{"version": ' + "9" * 5000 + "}")
    assert (caught.value.field, caught.value.code) == ("sheet", "json_number")


def test_an_uploaded_archive_invites_at_most_a_hundred_addresses() -> None:
    data = archive_data()
    data["invitations"] = [
        {"email": f"guest{n}@example.com", "created_at": None} for n in range(3000)
    ]
    text = json.dumps(data)
    with pytest.raises(ScoringError) as caught:
        archive_read.read_upload(text)
    assert caught.value.code == "too_many_invitations"
    with translation.override("en"):
        assert f"invites at most {ARCHIVE_MAX_INVITATIONS}" in error_text(caught.value)
    assert len(archive_read.read_archive(text).invitations) == 3000  # the admin's command


def test_a_utf8_csv_with_one_broken_byte_is_refused_naming_its_line() -> None:
    content = CSV.encode("utf-8") + b"2025-01-10,Caf\xff,1,2,paper,,,,,,,,,,,,60,-20,-20,-20\r\n"
    with pytest.raises(sheet_import.ImportRefused) as caught:
        sheet_import.read_import(content)
    assert caught.value.error.code == "utf8_broken"
    with translation.override("en"):
        assert "line 3" in caught.value.text()
    assert not Player.objects.filter(name="ZoÃ©").exists()


def test_a_windows_1252_csv_without_any_utf8_character_still_reads() -> None:
    (entry,) = sheet_import.read_import(CSV.encode("cp1252"))
    assert "Zoé" in entry.sheet.players
