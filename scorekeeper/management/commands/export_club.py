"""`manage.py export_club CLUB_ID`: the club archive (everything the club owns) as JSON."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper.exchange import archive_write
from scorekeeper.management.command_io import row, write_out
from scorekeeper.models import Club


class Command(BaseCommand):
    help = (
        "Write a club's archive (JSON: members, players, seasons, evenings, games, every deal "
        "with its dealer and who sat out) to standard output or --output; import_club reads it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club_id", type=int)
        parser.add_argument("--output", "-o", help="a file to write instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        club = row(Club, options["club_id"])
        write_out(self, archive_write.dump_archive(club), options.get("output"))
