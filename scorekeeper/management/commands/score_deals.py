"""`manage.py score_deals PATH`: score a deal sheet and print the result as JSON."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.exchange.error_text import error_text
from scorekeeper.management.command_io import add_lang_argument, language, read_sheet_bytes, refuse
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.sheet import load_sheet_text, score_sheet


class Command(BaseCommand):
    help = (
        "Score a deal sheet (JSON; '-' reads standard input) and print the scores as JSON. "
        "An invalid sheet exits with status 2 and one line on standard error."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the deal sheet, or - for standard input")
        add_lang_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = score_sheet(load_sheet_text(read_sheet_bytes(options["path"])))
        except ScoringError as error:
            line = " ".join(str(error).split())
            if options.get("lang"):
                with language(options):
                    line = error_text(error)
            refuse(self, line)
        out = getattr(self.stdout, "_out", None)
        if out is sys.stdout and hasattr(out, "reconfigure"):
            out.reconfigure(encoding="utf-8")
        self.stdout.write(json.dumps(result, ensure_ascii=False))
