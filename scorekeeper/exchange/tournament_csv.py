"""A tournament's results as CSV (``csv_format.CsvWriter``): rank, player, licence number,
each round's score, total and tie-breaks."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scorekeeper.exchange.csv_format import CsvWriter
from scorekeeper.reads.tournaments import Ranking


def results_csv(ranking: Ranking) -> str:
    writer = CsvWriter()
    rounds = [_("Round %(number)s") % {"number": number} for number in ranking.rounds]
    writer.row(
        [
            _("Rank"),
            _("Player"),
            _("Licence"),
            *rounds,
            _("Total"),
            _("Rounds won"),
            _("Best round"),
        ]
    )
    for row in ranking.rows:
        writer.row(
            [
                row.rank,
                row.name,
                row.licence,
                *("" if score is None else score for score in row.rounds),
                row.total,
                row.rounds_won,
                "" if row.best_round is None else row.best_round,
            ]
        )
    return writer.text()
