"""`manage.py import_club PATH`: a club archive as a new club, all or nothing, its members
restored (status 2 and one line, in ``--lang``'s language, for an invalid archive)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper import services
from scorekeeper.exchange import archive_read
from scorekeeper.management.command_io import add_lang_argument, language, read_sheet_bytes, refuse
from scorekeeper.scoring.errors import ScoringError


class Command(BaseCommand):
    help = (
        "Import a club archive (JSON written by export_club; '-' reads standard input) as a "
        "new club with its members, players, seasons, evenings and deals."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the archive, or - for standard input")
        add_lang_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        with language(options):
            try:
                archive = archive_read.read_archive(read_sheet_bytes(options["path"]))
                club = services.archive_import(archive=archive, owner=None, restore_members=True)
            except ScoringError as error:
                refuse(self, archive_read.refusal_text(error))
        self.stdout.write(f"club {club.pk}: {club.name} ({archive.deal_count} deals)")
