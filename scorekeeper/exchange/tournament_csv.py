"""A tournament's results as CSV: rank, player, each round's score, total and tie-breaks."""

from __future__ import annotations

import csv
import io

from django.utils.translation import gettext as _

from scorekeeper.reads.tournaments import Ranking


def results_csv(ranking: Ranking) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    rounds = [_("Round %(number)s") % {"number": number} for number in ranking.rounds]
    writer.writerow([_("Rank"), _("Player"), *rounds, _("Total"), _("Rounds won"), _("Best round")])
    for row in ranking.rows:
        writer.writerow(
            [
                row.rank,
                row.name,
                *("" if score is None else score for score in row.rounds),
                row.total,
                row.rounds_won,
                "" if row.best_round is None else row.best_round,
            ]
        )
    return out.getvalue()
