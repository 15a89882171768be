"""The read side of a game: its score sheet, built with a fixed number of queries.

Scores are read as stored (they came from the scoring service when the deal was saved);
running totals and each deal's outcome come from ``scorekeeper.scoring``.

After a deal is saved, the phones of the table all ask for the new sheet within seconds,
each from a process of its own (the save's answer, two or three polls, a page reloaded).
``kept_game_sheet`` builds it once per version of the evening and keeps it in the shared
cache, with a copy in each process that reads it: fetching it costs a tenth of building it.
A version made by one deal saved is the version before's sheet, kept, with that deal's row
(``with_added_deal``): a long game's deals are not read again after each one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scorekeeper.models import Deal, DealScore, Game, Player, Seat, stored_inputs
from scorekeeper.models.deals import ScoreLine
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import ESCOPETTE_PLAYERS, escopette_game
from scorekeeper.scoring.rules import HouseRules
from scorekeeper.scoring.tarot import (
    DealOutcome,
    deal_outcome,
    running_totals,
)
from scorekeeper.server import shared_cache
from scorekeeper.server.prepared import Prepared

#: How long a sheet is kept in the shared cache: the phones of a table ask for it within
#: seconds of the deal, and the next deal makes it useless. At 300 tables (a deal every 2
#: minutes each) that is some 1,500 sheets, 15 to 30 MB of Redis.
SHEET_SECONDS = 600
#: This process's copies of the sheets it built or read (some 20 KB for 50 deals each).
_kept = shared_cache.LocalMemo(512)


@dataclass
class SheetRow:
    deal: Deal  # with its dealer, taker and partner
    outcome: DealOutcome[int] | None
    scores: list[int | None]  # one per column; None when the player was not at the table
    totals: list[int] = field(default_factory=list)

    @property
    def cells(self) -> list[tuple[int | None, int]]:
        """Each column's score in this deal with the player's running total after it."""
        return list(zip(self.scores, self.totals, strict=True))

    @property
    def dealer(self) -> Player:
        return self.deal.dealer

    @property
    def taker(self) -> Player | None:
        return self.deal.taker

    @property
    def partner(self) -> Player | None:
        return self.deal.partner

    @property
    def contract_label(self) -> str:
        return str(dict(Deal.Contract.choices).get(self.deal.contract, self.deal.contract))

    @property
    def result(self) -> str:
        return result_text(self.deal, self.outcome)


@dataclass
class GameSheet:
    game: Game
    players: list[Player]  # the columns: everyone who sat at this game, in seat order
    present: list[Player]
    rows: list[SheetRow]
    totals: list[int]
    winner: Player | None = None
    ended_after: int | None = None  # L'escopette: the deal that ended the game
    problem: str = ""  # why the stored deals cannot be replayed by the rules, if they cannot

    @property
    def totals_by_player(self) -> list[tuple[Player, int]]:
        return list(zip(self.players, self.totals, strict=True))

    @property
    def leader_total(self) -> int | None:
        return max(self.totals) if self.totals else None


def result_text(deal: Deal, outcome: DealOutcome[Any] | None) -> str:
    """How a deal of French Tarot went, in words: made by 3, failed by 1, everyone passed."""
    if deal.passed:
        return _("everyone passed")
    if outcome is None:
        return ""
    if outcome.made:
        return _("made by %(gap)s") % {"gap": outcome.gap}
    return _("failed by %(gap)s") % {"gap": outcome.gap}


def replay_problem(error: ScoringError) -> str:
    """Why stored deals cannot be replayed, for the people looking at the sheet."""
    if error.field == "deal" and error.deal is not None:
        return _(
            "These deals cannot be replayed by the rules: the game ended after deal "
            "%(ended)s, yet deal %(number)s follows. Delete the deals after the end "
            "(or restore the deleted one) to put it right."
        ) % {"ended": error.deal - 1, "number": error.deal}
    return _("These deals cannot be replayed by the rules (deal %(number)s: %(reason)s).") % {
        "number": error.deal or "?",
        "reason": error.message,
    }


def kept_game_sheet(
    game: Game,
    version_key: str,
    seats: list[Seat] | None = None,
    *,
    added: tuple[str, int] | None = None,
) -> GameSheet:
    """``game_sheet(game, seats)``, built once per ``version_key``: a key that changes with
    anything the sheet shows (the evening's version, which every deal, seat, rename and rule
    change bumps). Kept per language too: a sheet's problem is said in words. The sheet
    comes with the caller's ``game``; nothing reading a sheet changes it.

    ``added``: the version before's key and the deal whose saving was the only change since
    (``Evening.added_deal``). The sheet kept under that key, when there is one, is then
    followed by that deal's row (``with_added_deal``) instead of being built again."""
    language = get_language()

    def build() -> GameSheet:
        if added is not None:
            before = shared_cache.peek(f"sheet.{added[0]}.{language}", memo=_kept)
            sheet = with_added_deal(before, game, added[1]) if before is not None else None
            if sheet is not None:
                return sheet
        return game_sheet(game, seats)

    sheet = shared_cache.get_or_build(
        f"sheet.{version_key}.{language}", build, SHEET_SECONDS, memo=_kept
    )
    return dataclasses.replace(sheet, game=game)


DEAL = 2_000_000_031  # the stand-in deal id the one-deal queries are compiled with
# The deal just saved and its scores, asked after every save: compiled once.
_one_deal = Prepared(lambda deal: Deal.objects.filter(pk=deal).order_by(), DEAL)
_one_deal_scores = Prepared(
    lambda deal: (
        DealScore.objects.filter(deal_id=deal)
        .order_by("pk")
        .values_list("player_id", "seated", "score")
    ),
    DEAL,
)


def with_added_deal(before: GameSheet, game: Game, deal_id: int) -> GameSheet | None:
    """``before`` (a sheet of the game) followed by the row of the deal ``deal_id``, saved
    since: what ``game_sheet`` builds once that deal is saved, in two small queries. A deal
    of another game of the evening leaves the sheet as it was.

    None when the sheet must be built whole: L'escopette (its winner replays the game), a
    sheet or a deal the rules cannot replay, a deal gone, already on the sheet or not after
    its last row (the sheet was read after more changes than its name says), a player
    the sheet has no column for."""
    if game.kind != Game.Kind.TAROT or before.problem:
        return None
    found = _one_deal.objects(deal_id)
    if not found:
        return None
    deal = found[0]
    if deal.game_id != game.pk:
        return before
    if before.rows and deal.number <= before.rows[-1].deal.number:
        return None
    scores_of_deal = _one_deal_scores.tuples(deal_id)
    lines: list[ScoreLine] = [(pid, seated, score) for pid, seated, score in scores_of_deal]
    by_id = {player.pk: player for player in before.players}
    named = {deal.dealer_id, deal.taker_id, deal.partner_id} - {None}
    if not named <= by_id.keys() or any(line[0] not in by_id for line in lines):
        return None
    _players_of([deal], {deal.pk: lines}, by_id, [])
    outcome, problem = _outcome(game, deal, lines, game.evening.house_rules)
    if problem:
        return None
    ids = list(by_id)
    stored = {player_id: score for player_id, _seated, score in lines}
    scores = [stored.get(pid) for pid in ids]
    (after,) = running_totals(ids, [stored], start=before.totals)
    row = SheetRow(deal=deal, outcome=outcome, scores=scores, totals=[after[pid] for pid in ids])
    return dataclasses.replace(before, rows=[*before.rows, row], totals=row.totals)


def _outcome(
    game: Game, deal: Deal, lines: list[ScoreLine], rules: HouseRules
) -> tuple[DealOutcome[int] | None, str]:
    """A French Tarot deal's outcome by the evening's ``rules`` (None for a deal passed, on
    paper or of L'escopette), or why the rules cannot replay it."""
    if game.kind != Game.Kind.TAROT or deal.passed or deal.taker_id is None:
        return None, ""
    try:
        inputs = stored_inputs(deal, game.kind, lines=lines)
        return deal_outcome(inputs, rules), ""
    except ScoringError as error:  # shown as stored, with the reason above the sheet
        return None, replay_problem(error.with_deal(deal.number))


def game_sheet(game: Game, seats: list[Seat] | None = None) -> GameSheet:
    """The sheet in three queries: the seats, the deals, their scores as plain tuples (model
    instances for every score would cost more than the rest of the page). ``seats``: the
    game's seats with their players, in seat order, when the caller has just read them."""
    if seats is None:
        seats = list(game.seats.select_related("player").order_by("position"))
    players = [seat.player for seat in seats]
    by_id = {player.pk: player for player in players}
    present = [seat.player for seat in seats if seat.present]
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    lines: dict[int, list[ScoreLine]] = {deal.pk: [] for deal in deals}
    for deal_id, player_id, seated, score in (
        DealScore.objects.filter(deal__game=game)
        .order_by("pk")
        .values_list("deal_id", "player_id", "seated", "score")
    ):
        bucket = lines.get(deal_id)
        if bucket is not None:  # else a deal saved since the deals were read: not on this sheet
            bucket.append((player_id, seated, score))
    _players_of(deals, lines, by_id, players)
    ids = [player.pk for player in players]
    rows: list[SheetRow] = []
    problem = ""
    rules = game.evening.house_rules  # the rules the evening's deals are scored by
    for deal in deals:
        stored = {player_id: score for player_id, _seated, score in lines[deal.pk]}
        outcome, refused = _outcome(game, deal, lines[deal.pk], rules)
        problem = problem or refused
        rows.append(SheetRow(deal=deal, outcome=outcome, scores=[stored.get(pid) for pid in ids]))
    cumulative = running_totals(
        ids,
        (
            {pid: score for pid, score in zip(ids, row.scores, strict=True) if score is not None}
            for row in rows
        ),
    )
    for row, after in zip(rows, cumulative, strict=True):
        row.totals = [after[pid] for pid in ids]
    totals = rows[-1].totals if rows else [0] * len(players)
    winner, ended_after = None, None
    if game.kind == Game.Kind.ESCOPETTE and game.target and len(ids) == ESCOPETTE_PLAYERS:
        try:
            result = escopette_game(
                ids,
                game.target,
                [stored_inputs(row.deal, game.kind, lines=lines[row.deal.pk]) for row in rows],
            )
        except ScoringError as error:  # no winner then: the sheet shows what is stored
            problem = problem or replay_problem(error)
        else:
            winner = by_id.get(result.winner) if result.winner is not None else None
            ended_after = result.ended_after
    return GameSheet(
        game=game,
        players=players,
        present=present,
        rows=rows,
        totals=totals,
        winner=winner,
        ended_after=ended_after,
        problem=problem,
    )


def _players_of(
    deals: list[Deal],
    lines: dict[int, list[ScoreLine]],
    by_id: dict[int, Player],
    players: list[Player],
) -> None:
    """Each deal's dealer, taker and partner from the seated players (one query for any who
    is no longer seated); a player scored but no longer seated gets a column of their own."""
    wanted = {pid for deal in deals for pid in (deal.dealer_id, deal.taker_id, deal.partner_id)}
    scored = [pid for deal in deals for pid, _seated, _score in lines[deal.pk]]
    missing = (wanted | set(scored)) - set(by_id) - {None}
    if missing:
        by_id.update((p.pk, p) for p in Player.objects.filter(pk__in=missing))
    columns = {player.pk for player in players}
    for pid in dict.fromkeys(scored):  # in the order they first scored
        if pid not in columns:
            columns.add(pid)
            players.append(by_id[pid])
    for deal in deals:
        deal.dealer = by_id[deal.dealer_id]
        deal.taker = by_id.get(deal.taker_id) if deal.taker_id is not None else None
        deal.partner = by_id.get(deal.partner_id) if deal.partner_id is not None else None
