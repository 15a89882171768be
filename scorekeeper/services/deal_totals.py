"""Each score row's running total (``DealScore.total``), kept by the writes.

Every service that changes a game's deals or their order (record, correct, delete, put back,
rescore, import) calls ``game_totals_keep`` in its own transaction, once its deals are in
place: the sheet then reads the totals as stored. The totals come from the rules
(``scoring.tarot.line_totals``); a row is written only when its total moved.
"""

from __future__ import annotations

from scorekeeper.models import DealScore, Game
from scorekeeper.scoring.tarot import line_totals


def game_totals_keep(game: Game | int) -> int:
    """Every score row of the game gets its running total again where it moved (two
    queries: the game's score lines, one update); returns how many rows moved."""
    rows = list(
        DealScore.objects.filter(deal__game=game)
        .order_by("deal__number", "pk")
        .values_list("pk", "deal_id", "player_id", "score", "total")
    )
    totals = line_totals([(deal, player, score) for _pk, deal, player, score, _kept in rows])
    moved = [
        DealScore(pk=row[0], total=total)
        for row, total in zip(rows, totals, strict=True)
        if row[4] != total
    ]
    if moved:
        DealScore.objects.bulk_update(moved, ["total"], batch_size=500)
    return len(moved)
