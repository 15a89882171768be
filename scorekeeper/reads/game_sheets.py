"""A game's score sheet, read as stored (the scores and the running totals the services
keep), with each deal's outcome from ``scoring``: one query for the deals and scores, plus
the seats.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.db.models import JSONField, TextField
from django.db.models.functions import Cast
from django.utils.translation import gettext as _

from scorekeeper.models import Deal, DealScore, Game, Player, Seat, stored_inputs
from scorekeeper.models.deals import ScoreLine
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import ESCOPETTE_PLAYERS, escopette_game
from scorekeeper.scoring.rules import HouseRules
from scorekeeper.scoring.tarot import DealOutcome, deal_outcome

CONTRACT_LABELS = dict(Deal.Contract.choices)  # translated when shown


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
    def contract_label(self) -> str:
        return str(CONTRACT_LABELS.get(self.deal.contract, self.deal.contract))

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


#: The deal's columns the sheet shows and the rules read, read with each of its score lines
#: (``deal__<name>``); those below are left deferred: its case, its key, who saved it and when.
_DEAL_UNREAD = ("case_number", "idempotency_key", "created_by", "created_at", "updated_at")
_DEAL_FIELDS = [f for f in Deal._meta.concrete_fields if f.name not in _DEAL_UNREAD]
_DEAL_ATTNAMES = [f.attname for f in _DEAL_FIELDS]
#: A JSON column comes as its text, decoded once a deal rather than once a score line.
_DEAL_COLUMNS = [
    Cast(f"deal__{f.name}", TextField()) if isinstance(f, JSONField) else f"deal__{f.name}"
    for f in _DEAL_FIELDS
]
_JSON_AT = [i for i, f in enumerate(_DEAL_FIELDS) if isinstance(f, JSONField)]


def _stored(game: Game) -> tuple[list[Deal], dict[int, list[ScoreLine]], dict[int, dict[int, int]]]:
    """The game's deals in order, each deal's score lines and each deal's running totals by
    player, in one query: the score rows with their deal's columns (no model instance per
    score row: there are some 250 of them in a long evening)."""
    deals: list[Deal] = []
    lines: dict[int, list[ScoreLine]] = {}
    totals: dict[int, dict[int, int]] = {}
    width = len(_DEAL_FIELDS)
    for row in (
        DealScore.objects.filter(deal__game=game)
        .order_by("deal__number", "pk")
        .values_list(*_DEAL_COLUMNS, "player_id", "seated", "score", "total")
    ):
        deal_id = row[0]
        if deal_id not in lines:
            values = list(row[:width])
            for i in _JSON_AT:
                values[i] = json.loads(values[i]) if values[i] is not None else None
            deals.append(Deal.from_db(Deal.objects.db, _DEAL_ATTNAMES, values))
            lines[deal_id], totals[deal_id] = [], {}
        player_id, seated, score, total = row[width:]
        lines[deal_id].append((player_id, seated, score))
        totals[deal_id][player_id] = total
    return deals, lines, totals


def game_sheet(game: Game, seats: list[Seat] | None = None) -> GameSheet:
    """The sheet as stored: one query for the deals and their scores with their running
    totals, and the seats (``seats``: the game's seats with their players, in seat order,
    when the caller has just read them)."""
    if seats is None:
        seats = list(game.seats.select_related("player").order_by("position"))
    players = [seat.player for seat in seats]
    by_id = {player.pk: player for player in players}
    present = [seat.player for seat in seats if seat.present]
    deals, lines, stored_totals = _stored(game)
    _players_of(deals, lines, by_id, players)
    ids = [player.pk for player in players]
    rows: list[SheetRow] = []
    problem = ""
    rules = game.evening.house_rules  # the rules the evening's deals are scored by
    current = dict.fromkeys(ids, 0)  # each column's total so far, as stored
    for deal in deals:
        stored = {player_id: score for player_id, _seated, score in lines[deal.pk]}
        current.update(stored_totals[deal.pk])  # a player not in this deal keeps his total
        outcome, refused = _outcome(game, deal, lines[deal.pk], rules)
        problem = problem or refused
        rows.append(
            SheetRow(
                deal=deal,
                outcome=outcome,
                scores=[stored.get(pid) for pid in ids],
                totals=[current[pid] for pid in ids],
            )
        )
    totals = [current[pid] for pid in ids]
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
