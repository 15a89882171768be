"""`manage.py export_season SEASON_ID`: a season as JSON (a deal sheet per evening) or CSV."""

from __future__ import annotations

from typing import Any

from scorekeeper.exchange import exports
from scorekeeper.management.command_io import ExportCommand
from scorekeeper.models import Season


class Command(ExportCommand):
    help = (
        'Write a season as JSON ({"season", "start", "end", "evenings": [{"date", "place", '
        '"game", "sheet"}]}) or as CSV (a row per deal) to standard output or --output.'
    )
    model, id_name = Season, "season_id"

    def content(self, found: Any, options: dict[str, Any]) -> str:
        if options["format"] == "csv":
            return exports.season_csv(found)
        return exports.season_json(found) + "\n"
