"""`--lang` for the commands that read or write what people read: errors, CSV conventions."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import CommandParser
from django.utils import translation


def add_lang_argument(parser: CommandParser) -> None:
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
