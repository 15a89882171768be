"""`manage.py import_sheet CLUB_ID PATH`: a deal sheet, season file or CSV as new closed
evenings, all or nothing (a bad file: status 2 and one line, in ``--lang``'s language)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.exchange import exports, sheet_import
from scorekeeper.exchange.error_text import error_text
from scorekeeper.management.command_io import (
    add_lang_argument,
    language,
    read_sheet_bytes,
    refuse,
    row,
)
from scorekeeper.models import Club
from scorekeeper.scoring.errors import ScoringError


class Command(BaseCommand):
    help = (
        "Import a deal sheet (JSON; '-' reads standard input) as a new evening of the club, "
        "or every evening of a season file. Players are matched by name and created when "
        "missing. An invalid sheet saves nothing and exits with status 2 and one line."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club_id", type=int)
        parser.add_argument("path", help="the deal sheet, or - for standard input")
        parser.add_argument("--date", type=dt.date.fromisoformat, help="YYYY-MM-DD (today)")
        parser.add_argument("--place", default="")
        parser.add_argument(
            "--skip-existing",
            action="store_true",
            help="leave out the games already imported instead of refusing the file",
        )
        add_lang_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        club = row(Club, options["club_id"])
        with language(options):
            try:
                evenings = sheet_import.import_entries(
                    club=club,
                    entries=sheet_import.read_import(read_sheet_bytes(options["path"])),
                    created_by=None,
                    date=options["date"],
                    place=options["place"],
                    skip_existing=options["skip_existing"],
                )
            except ScoringError as error:
                refuse(self, exports.one_line(error) if not options["lang"] else error_text(error))
            except sheet_import.ImportRefused as refused:
                refuse(self, refused.line if not options["lang"] else refused.text())
        for evening in evenings:
            self.stdout.write(f"evening {evening.pk}: {evening.date.isoformat()}")
