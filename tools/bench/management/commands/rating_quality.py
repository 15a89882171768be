"""`manage.py rating_quality [--club ID] [--synthetic]`: is the rating worth showing?

For each club (or the one given), season by season and all time: how well the ratings
predicted each deal's result from the deals before it (Brier score and log loss), against
always predicting the running rate of won contracts. ``--synthetic`` adds the made-up clubs
of the benchmark, where the players' skills are known.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.models import Club
from scorekeeper.reads.club_figures import club_figures
from tools.bench.rating_benchmark import describe, quality_line
from tools.bench.rating_club import synthetic_club


class Command(BaseCommand):
    help = "Print how well the ratings predict the deals of a club, against the base rate."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", type=int, help="the club's id (default: every club)")
        parser.add_argument(
            "--synthetic", action="store_true", help="also the synthetic clubs of the benchmark"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        clubs = Club.objects.order_by("pk")
        if options["club"] is not None:
            clubs = clubs.filter(pk=options["club"])
            if not clubs.exists():
                raise CommandError(f"--club: no club {options['club']}")
        for club in clubs:
            for season in club.seasons.order_by("start", "pk"):
                figures = club_figures(club.pk, start=season.start, end=season.end)
                self.stdout.write(
                    describe(f"{club.name} (#{club.pk}), {season.name}", figures.quality)
                )
            figures = club_figures(club.pk)
            self.stdout.write(describe(f"{club.name} (#{club.pk}), all time", figures.quality))
        if options["synthetic"]:
            for spread in (1.0, 0.5, 0.0):
                deals = synthetic_club(spread=spread).deals
                self.stdout.write(quality_line(f"synthetic club, skill spread {spread}", deals))
