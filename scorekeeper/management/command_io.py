"""What the management commands share: ``--lang``, reading a sheet, writing a file out."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Model
from django.utils import translation

from scorekeeper.exchange import exports
from scorekeeper.scoring.errors import ScoringError

EXIT_INVALID = 2  # the exit status of a command given an invalid sheet or archive
M = TypeVar("M", bound=Model)


def row(model: type[M], pk: int) -> M:
    """The ``model`` row ``pk``, or the command's error "no <model> <pk>"."""
    found = model._default_manager.filter(pk=pk).first()
    if found is None:
        raise CommandError(f"no {model._meta.model_name} {pk}")
    return found


def refuse(command: BaseCommand, line: str) -> NoReturn:
    """One line on standard error, as written, and the exit status of an invalid file."""
    command.stderr.write(line, style_func=lambda text: text)
    raise SystemExit(EXIT_INVALID)


class ExportCommand(BaseCommand):
    """An evening or a season (``model``, by the id argument ``id_name``) written as JSON or
    CSV (``content``) to standard output or ``--output``."""

    model: type[Model]
    id_name: str

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(self.id_name, type=int)
        parser.add_argument("--format", choices=("json", "csv"), default="json")
        parser.add_argument("--output", "-o", help="a file to write instead of standard output")
        add_lang_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        found = row(self.model, options[self.id_name])
        try:
            with language(options):
                content = self.content(found, options)
        except ScoringError as error:
            raise CommandError(exports.one_line(error)) from None
        write_out(self, content, options.get("output"))

    def content(self, found: Any, options: dict[str, Any]) -> str:
        raise NotImplementedError


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
