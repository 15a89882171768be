"""What the management commands share: ``--lang``, reading a sheet, writing a file out."""

from __future__ import annotations

import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation

from scorekeeper.scoring.errors import ScoringError

EXIT_INVALID = 2  # the exit status of a command given an invalid sheet or archive


def add_lang_argument(parser: CommandParser) -> None:
    """`--lang` for the commands that read or write what people read: errors, CSV conventions."""
    parser.add_argument(
        "--lang",
        choices=[code for code, _name in settings.LANGUAGES],
        default=None,
        help="the language of messages and of the CSV convention (fr: ';' and 45,5; "
        "en, ru: ',' and 45.5); default: the site's language",
    )


def language(options: dict[str, object]) -> translation.override:
    """Activate --lang (or the site's language) for the command's work."""
    return translation.override(str(options.get("lang") or settings.LANGUAGE_CODE))


def read_sheet_bytes(path: str) -> bytes:
    """The sheet's raw text from a file, or from standard input for "-"."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        return stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
    try:
        return Path(path).read_bytes()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ScoringError("sheet", f"cannot read {path}: {reason}") from None


def write_out(command: BaseCommand, content: str, path: str | None) -> None:
    """The text to a file (UTF-8) or to standard output, exactly as given."""
    if path:
        Path(path).write_text(content, encoding="utf-8", newline="")
        return
    out = getattr(command.stdout, "_out", None)
    if out is sys.stdout and hasattr(out, "reconfigure"):
        out.reconfigure(encoding="utf-8", newline="")
    command.stdout.write(content, ending="")
