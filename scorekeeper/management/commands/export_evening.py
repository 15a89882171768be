"""`manage.py export_evening EVENING_ID`: an evening as a deal sheet (JSON) or CSV, for backups."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.exchange import exports
from scorekeeper.management.command_io import add_lang_argument, language, write_out
from scorekeeper.models import Evening
from scorekeeper.scoring.errors import ScoringError


class Command(BaseCommand):
    help = (
        "Write an evening as its deal sheet (JSON, the first game unless --game) or as CSV "
        "(a row per deal, a column per player) to standard output or --output."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("evening_id", type=int)
        parser.add_argument("--format", choices=("json", "csv"), default="json")
        parser.add_argument("--game", type=int, default=1, help="the game's number (JSON)")
        parser.add_argument("--output", "-o", help="a file to write instead of standard output")
        add_lang_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        evening = Evening.objects.filter(pk=options["evening_id"]).first()
        if evening is None:
            raise CommandError(f"no evening {options['evening_id']}")
        try:
            with language(options):
                content = self.content(evening, options)
        except ScoringError as error:
            raise CommandError(exports.one_line(error)) from None
        write_out(self, content, options.get("output"))

    def content(self, evening: Any, options: dict[str, Any]) -> str:
        if options["format"] == "csv":
            return exports.evening_csv(evening)
        else:
            return exports.evening_json(evening, options["game"]) + "\n"
