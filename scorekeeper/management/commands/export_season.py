"""`manage.py export_season SEASON_ID`: a season as JSON (a deal sheet per evening) or CSV."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.exchange import exports
from scorekeeper.management.command_io import add_lang_argument, language, write_out
from scorekeeper.models import Season
from scorekeeper.scoring.errors import ScoringError


class Command(BaseCommand):
    help = (
        'Write a season as JSON ({"season", "start", "end", "evenings": [{"date", "place", '
        '"game", "sheet"}]}) or as CSV (a row per deal) to standard output or --output.'
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season_id", type=int)
        parser.add_argument("--format", choices=("json", "csv"), default="json")
        parser.add_argument("--output", "-o", help="a file to write instead of standard output")
        add_lang_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        season = Season.objects.filter(pk=options["season_id"]).first()
        if season is None:
            raise CommandError(f"no season {options['season_id']}")
        try:
            with language(options):
                content = self.content(season, options)
        except ScoringError as error:
            raise CommandError(exports.one_line(error)) from None
        write_out(self, content, options.get("output"))

    def content(self, season: Any, options: dict[str, Any]) -> str:
        if options["format"] == "csv":
            return exports.season_csv(season)
        else:
            return exports.season_json(season) + "\n"
