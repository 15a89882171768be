"""Every user-facing string has a French and a Russian translation, compiled."""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale"


def read_po(path: Path) -> list[dict[str, object]]:
    """A small reader for the catalogues makemessages writes."""
    entries: list[dict[str, object]] = []
    entry: dict[str, object] = {}
    key = ""
    for raw in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        line = raw.strip()
        if not line:
            if entry:
                entries.append(entry)
            entry, key = {}, ""
            continue
        if line.startswith("#,"):
            entry["fuzzy"] = "fuzzy" in line
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            entry[key] = str(entry[key]) + ast.literal_eval(line)
            continue
        key, _space, value = line.partition(" ")
        entry[key] = ast.literal_eval(value)
    return [e for e in entries if e.get("msgid")]


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_every_string_is_translated_and_none_is_fuzzy(language: str) -> None:
    entries = read_po(LOCALE / language / "LC_MESSAGES" / "django.po")
    assert entries
    missing = [
        e["msgid"]
        for e in entries
        if e.get("fuzzy") or not any(v for k, v in e.items() if str(k).startswith("msgstr"))
    ]
    assert missing == []


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_compiled_catalogue_matches_the_source(language: str) -> None:
    folder = LOCALE / language / "LC_MESSAGES"
    with (folder / "django.mo").open("rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)
    for entry in read_po(folder / "django.po"):
        if "msgid_plural" in entry:
            continue
        msgid = str(entry["msgid"])
        if "msgctxt" in entry:
            continue
        assert catalogue.gettext(msgid) == entry["msgstr"], msgid
