"""The catalogues follow their language's typography: in French a narrow no-break space
(U+202F) before ":", ";", "?" and "!", one apostrophe (’), no "(s)" in place of a plural;
in Russian the same apostrophe and three plural forms; in every language a count has its
plural forms rather than one text for every number."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale"
NNBSP = "\u202f"
# ":" "?" "!" ";" that end a word: followed by a space, the end, or a closing mark.
PUNCTUATION = re.compile(r"(.)([:;?!])(?=\s|$|[\"»<)])", re.DOTALL)


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))


def texts(entry: polib.POEntry) -> list[str]:
    return list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]


def live(language: str) -> list[polib.POEntry]:
    return [entry for entry in catalogue(language) if not entry.obsolete]


def test_french_puts_a_narrow_no_break_space_before_colons_and_question_marks() -> None:
    wrong = [
        (entry.msgid, text)
        for entry in live("fr")
        for text in texts(entry)
        for match in PUNCTUATION.finditer(text)
        if match.group(1) != NNBSP
    ]
    assert wrong == []


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_one_kind_of_apostrophe(language: str) -> None:
    wrong = [text for entry in live(language) for text in texts(entry) if "'" in text]
    assert wrong == []


def test_no_plural_is_written_with_brackets() -> None:
    wrong = [
        text
        for language in ("fr", "ru")
        for entry in live(language)
        for text in [entry.msgid, *texts(entry)]
        if re.search(r"\w\((s|e|es|x)\)", text)
    ]
    assert wrong == []


def test_russian_plurals_have_their_three_forms() -> None:
    wrong = [
        entry.msgid
        for entry in live("ru")
        if entry.msgid_plural and not all(entry.msgstr_plural.get(n) for n in range(3))
    ]
    assert wrong == []


def test_french_says_round_one_way_and_ratings_plainly() -> None:
    shown = " ".join(text for entry in live("fr") for text in texts(entry))
    assert not re.search(r"\b[Mm]anches?\b", shown)
    assert not re.search(r"\b[Cc]ot(e|es|é|és)\b", shown)
    assert "Ronde %(number)s" in shown


def test_templates_do_not_glue_a_colon_to_a_translated_word() -> None:
    """``{% translate "Totals" %}:`` writes "Totaux:" in French: the colon belongs inside
    the translated text."""
    templates = Path(__file__).resolve().parents[2] / "templates"
    glued = re.compile(r"(%\}|endblocktranslate %\})[:?!]")
    wrong = [
        f"{path.relative_to(templates)}: {match.group(0)}"
        for path in templates.rglob("*.html")
        for match in glued.finditer(path.read_text(encoding="utf-8"))
        if "translate" in path.read_text(encoding="utf-8")[max(0, match.start() - 80) : match.end()]
    ]
    assert wrong == []
