"""Fill the catalogues from translation files written beside the code, then compile them.

Work done in parallel branches cannot all edit ``locale/*/django.po`` without conflicts, so a
branch writes its new strings to ``locale/pending/<branch>.json`` instead::

    {"English msgid": {"fr": "…", "ru": "…"},
     "a pgettext msgid": {"context": "its context", "fr": "…", "ru": "…"},
     "one deal": {"plural": "%(n)s deals", "fr": ["…", "…"], "ru": ["…", "…", "…"]}}

``make translations`` runs ``makemessages`` (so every msgid in the code is in the catalogues),
copies each pending translation into the French and Russian catalogues where the entry is
empty or fuzzy, compiles them, and lists the msgids still untranslated. The pending files are
removed once applied (``--keep`` keeps them).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"
LANGUAGES = ("fr", "ru")


def pending() -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = {}
    for path in sorted((LOCALE / "pending").glob("*.json")):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            context, separator, msgid = key.rpartition("\x04")  # gettext's "context\x04msgid"
            found[msgid] = {**value, "context": context} if separator else value
    return found


def fill(language: str, translations: dict[str, dict[str, object]]) -> list[str]:
    path = LOCALE / language / "LC_MESSAGES" / "django.po"
    catalogue = polib.pofile(str(path), wrapwidth=79)
    missing = []
    for entry in catalogue:
        if entry.obsolete:
            continue
        found = translations.get(entry.msgid, {})
        if found.get("context", entry.msgctxt) != entry.msgctxt:
            found = {}
        given = found.get(language)
        needs = entry.fuzzy or not (entry.msgstr or any(entry.msgstr_plural.values()))
        if given is not None and needs:
            if entry.msgid_plural:
                forms = list(given) if isinstance(given, list) else [given]
                entry.msgstr_plural = dict(enumerate(forms))
            else:
                entry.msgstr = str(given)
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
            entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
        elif needs:
            missing.append(entry.msgid)
    catalogue.save(str(path))
    # gettext's own wrapping, as makemessages writes it: no diff beyond the entries filled.
    subprocess.run(["msgcat", "--use-first", "-o", str(path), str(path)], check=True)
    return missing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep locale/pending/*.json")
    options = parser.parse_args()
    manage = [sys.executable, str(ROOT / "manage.py")]
    env = {"DEBUG": "1", "PATH": "/usr/bin:/bin"}
    subprocess.run(
        [
            *manage,
            "makemessages",
            *(f"--locale={language}" for language in ("en", *LANGUAGES)),
            "--no-obsolete",
            "--add-location",
            "file",
            "--ignore",
            ".venv/*",
            "--ignore",
            "tests/*",
        ],
        cwd=ROOT,
        check=True,
        env=env,
    )
    translations = pending()
    status = 0
    for language in LANGUAGES:
        missing = fill(language, translations)
        for msgid in missing:
            print(f"{language}: untranslated: {msgid!r}")
            status = 1
    subprocess.run(
        [*manage, "compilemessages", "--ignore", ".venv/*"], cwd=ROOT, check=True, env=env
    )
    if not options.keep and status == 0:
        for path in (LOCALE / "pending").glob("*.json"):
            path.unlink()
    return status


if __name__ == "__main__":
    sys.exit(main())
