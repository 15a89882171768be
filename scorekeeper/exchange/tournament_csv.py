"""A tournament's results as CSV: rank, player, federation licence number, each round's
score, total and tie-breaks; a duplicate tournament's: rank, player, licence, the method's
figure, the sum of scores, deals played and deals where no one did better.

Written by the app's one CSV writer (``csv_format.CsvWriter``): the reader's separator, a
byte order mark, and a name a spreadsheet would run as a formula kept as text.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scorekeeper.exchange.csv_format import CsvWriter
from scorekeeper.reads.duplicate import DuplicateRanking
from scorekeeper.reads.tournaments import Ranking


def results_csv(ranking: Ranking | DuplicateRanking) -> str:
    writer = CsvWriter()
    if isinstance(ranking, DuplicateRanking):
        figure = (
            _("Match points (out of 100)")
            if ranking.method == "match_points"
            else _("Against the mean")
        )
        writer.row([_("Rank"), _("Player"), _("Licence"), figure, _("Total"), _("Deals"),
                    _("Deals best")])  # fmt: skip
        for line in ranking.rows:
            writer.row([line.rank, line.name, line.licence,
                        str(line.figure).replace(".", writer.mark), line.raw, line.held,
                        line.best])  # fmt: skip
        return writer.text()
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
