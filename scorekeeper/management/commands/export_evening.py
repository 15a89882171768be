"""`manage.py export_evening EVENING_ID`: an evening as a deal sheet (JSON) or CSV, for backups."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from scorekeeper.exchange import exports
from scorekeeper.management.command_io import ExportCommand
from scorekeeper.models import Evening


class Command(ExportCommand):
    help = (
        "Write an evening as its deal sheet (JSON, the first game unless --game) or as CSV "
        "(a row per deal, a column per player) to standard output or --output."
    )
    model, id_name = Evening, "evening_id"

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--game", type=int, default=1, help="the game's number (JSON)")

    def content(self, found: Any, options: dict[str, Any]) -> str:
        if options["format"] == "csv":
            return exports.evening_csv(found)
        return exports.evening_json(found, options["game"]) + "\n"
