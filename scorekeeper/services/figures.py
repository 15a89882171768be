"""The read model's write: each evening's figures computed again from its stored scores.

``refresh_figures`` recomputes the ``PlayerEvening`` and ``EveningFigures`` rows of some
evenings (about 50 deals each) and drops the club figures' checkpoints that held them; every
service that changes an evening calls it in its own transaction (``common.evening_touch``), the
imports for the evenings they create. The reads add up the rows and never write them.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from typing import Any

from django.db.models import Count, F, QuerySet, Sum, TextField
from django.db.models.functions import Cast

from scorekeeper.models import (
    Deal,
    DealScore,
    Evening,
    EveningFigures,
    FiguresCheckpoint,
    PlayerEvening,
)
from scorekeeper.models.figures import ESCOPETTE, PLAIN_FIGURES, TAROT, Tally
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import EscopetteDeal, escopette_game
from scorekeeper.scoring.tarot import TARGETS

CHELEM_MADE = ("announced", "unannounced")

# What each stored score was, as the database sees it.
OUT, PASSED, TAKER, PARTNER, DEFENCE = "out", "passed", "taker", "partner", "defence"


def count_line(tally: Tally, line: dict[str, Any]) -> None:
    """Add one group of the aggregation: ``n`` scores of the same kind of deal."""
    n, points, role, made = line["n"], line["points"], line["role"], line["made"]
    tally.total += points
    if role in (OUT, PASSED):
        return
    tally.deals += n
    attack = role in (TAKER, PARTNER)
    if role == TAKER:
        tally.takes += n
        tally.made += n if made else 0
        contract = tally.contracts.setdefault(line["contract"], [0, 0, 0])
        contract[0] += n
        contract[1] += n if made else 0
        contract[2] += points
    elif role == PARTNER:
        tally.called += n
        tally.called_made += n if made else 0
        tally.called_points += points
    petit = line["petit_au_bout"]
    if petit:
        if (petit == "attack") == attack:
            tally.petit_won += n
        else:
            tally.petit_lost += n
    chelem = line["chelem"]
    if chelem in CHELEM_MADE:
        tally.chelem_won += n if attack else 0
        tally.chelem_lost += 0 if attack else n
    elif chelem == "defense":
        tally.chelem_won += 0 if attack else n
        tally.chelem_lost += n if attack else 0
    elif chelem == "announced_failed" and attack:
        tally.chelem_failed += n
    won = made == attack  # a poignée goes to the side that wins the deal
    for kind in line["poignees"] or ():
        pair = tally.poignees.setdefault(kind, [0, 0])
        pair[0 if won else 1] += n


def _columns(tally: Tally) -> dict[str, int]:
    columns = {name: getattr(tally, name) for name in PLAIN_FIGURES}
    for contract, (taken, made, points) in tally.contracts.items():
        columns[f"{contract}_taken"] = taken
        columns[f"{contract}_made"] = made
        columns[f"{contract}_points"] = points
    for kind, (won, lost) in tally.poignees.items():
        columns[f"{kind}_won"] = won
        columns[f"{kind}_lost"] = lost
    return columns


#: What ``_lines`` reads of each score: its deal's columns (its poignées as their text), and
#: what it groups them by, named as ``count_line`` reads them.
_READ = ("player_id", "deal__game__evening_id", "seated", "score", "deal__passed", "deal__paper")
_DEAL = ("deal__taker_id", "deal__partner_id", "deal__bouts", "deal__points", "deal__contract")
_MARKS = ("deal__petit_au_bout", "deal__chelem", Cast("deal__poignees", TextField()))
_LINE = ("player_id", "evening", "role", "made", "contract", "petit_au_bout", "chelem", "poignees")


def _role(player: int, seated: bool, passed: bool, taker: int | None, partner: int | None) -> str:
    if not seated:
        return OUT
    if passed:  # or scores only, on paper: in totals, not in statistics
        return PASSED
    return TAKER if taker == player else PARTNER if partner == player else DEFENCE


def _lines(scores: QuerySet[DealScore]) -> list[dict[str, Any]]:
    """The scores grouped by player and kind of deal: a score's role and whether its deal's
    contract was made (the attack's points reached the target for its bouts)."""
    lines: dict[tuple[Any, ...], dict[str, Any]] = {}
    for player, evening, seated, score, passed, paper, *deal in scores.values_list(
        *_READ, *_DEAL, *_MARKS
    ):
        taker, partner, bouts, points, *marks = deal
        role = _role(player, seated, passed or paper, taker, partner)
        made = bouts in TARGETS and points is not None and points >= TARGETS[bouts]
        key = (player, evening, role, made, *marks)
        if key not in lines:
            lines[key] = dict(zip(_LINE, key, strict=True), n=0, points=0)
        lines[key]["n"] += 1
        lines[key]["points"] += score
    for line in lines.values():
        line["poignees"] = json.loads(line["poignees"] or "[]")
    return list(lines.values())


Figures = dict[int, dict[int, Tally]]  # evening id -> player id -> figures


def _tarot(ids: list[int]) -> tuple[Figures, dict[int, int]]:
    """The evenings' French Tarot figures per player, and their deals played (one query)."""
    tallies: Figures = {}
    played: dict[int, int] = {}
    scores = DealScore.objects.filter(deal__game__evening_id__in=ids, deal__game__kind=TAROT)
    for line in _lines(scores):
        evening = line["evening"]
        count_line(tallies.setdefault(evening, {}).setdefault(line["player_id"], Tally()), line)
        if line["role"] == TAKER:
            played[evening] = played.get(evening, 0) + line["n"]
    return tallies, played


def _escopette(ids: list[int]) -> tuple[Figures, dict[int, list[int]]]:
    """The evenings' L'escopette figures per player, and their deals, games and games the
    rules refuse (two queries; one without a game of it): each game's winner comes from its
    deals' stored stakes, played again in order by the scoring rules."""
    lines = (
        DealScore.objects.filter(
            seated=True, deal__game__kind=ESCOPETTE, deal__game__evening_id__in=ids
        )
        .values("player_id", game=F("deal__game_id"), evening=F("deal__game__evening_id"))
        .annotate(n=Count("pk"), points=Sum("score"))
        .order_by()
    )
    tallies: Figures = {}
    counts: dict[int, list[int]] = {}  # evening id -> deals, games, games refused
    seated: dict[int, list[int]] = {}  # game id -> its players
    evening_of: dict[int, int] = {}
    for line in lines:
        tally = tallies.setdefault(line["evening"], {}).setdefault(line["player_id"], Tally())
        tally.total += line["points"]
        tally.deals += line["n"]
        tally.games += 1
        seated.setdefault(line["game"], []).append(line["player_id"])
        evening_of[line["game"]] = line["evening"]
    if not seated:
        return tallies, counts
    stakes: dict[int, list[EscopetteDeal[int]]] = {}
    targets: dict[int, int] = {}
    deals = Deal.objects.filter(game__kind=ESCOPETTE, game__evening_id__in=ids)
    for game, target, stake in deals.order_by("game_id", "number").values_list(
        "game_id", "game__target", "stakes"
    ):
        stakes.setdefault(game, []).append(
            EscopetteDeal(stakes={int(trump): winner for trump, winner in stake.items()})
        )
        targets[game] = target or 0
    for game, players in seated.items():
        evening = evening_of[game]
        count = counts.setdefault(evening, [0, 0, 0])
        count[0] += len(stakes.get(game, []))
        count[1] += 1
        try:
            result = escopette_game(sorted(players), targets.get(game, 0), stakes.get(game, []))
        except ScoringError:  # stored deals the scoring rules refuse: no winner
            count[2] += 1
            for player in players:
                tallies[evening][player].unreplayable += 1
            continue
        if result.winner is not None:
            tallies[evening][result.winner].won += 1
    return tallies, counts


def refresh_figures(
    evening_ids: Iterable[int],
    *,
    placed: dict[int, tuple[int, dt.date]] | None = None,
    only: str | None = None,
    growing: bool = False,
) -> None:
    """The figures of these evenings, computed again from their stored scores and written
    (the same few queries for any number of evenings). Call it in the write's transaction;
    ``placed``: each evening's club and date, when the caller holds them; ``only``: the one game
    kind whose figures changed (the other's are left as they are); ``growing``: the change
    only added scores (a deal saved): no row goes, each is written over in place."""
    ids = sorted(set(evening_ids))
    if not ids:
        return
    players: list[PlayerEvening] = []
    evenings: list[EveningFigures] = []
    placed = placed or {
        pk: (club, date)
        for pk, club, date in Evening.objects.filter(pk__in=ids).values_list(
            "pk", "club_id", "date"
        )
    }
    kinds = (only,) if only else (TAROT, ESCOPETTE)
    tarot, played = _tarot(ids) if TAROT in kinds else ({}, {})
    escopette, counts = _escopette(ids) if ESCOPETTE in kinds else ({}, {})
    for kind, figures in ((TAROT, tarot), (ESCOPETTE, escopette)):
        for evening_id, tallies in sorted(figures.items()):
            players.extend(
                PlayerEvening(
                    evening_id=evening_id, player_id=player_id, kind=kind, **_columns(tally)
                )
                for player_id, tally in sorted(tallies.items())
            )
            deals, games, refused = counts.get(evening_id, (0, 0, 0))
            evenings.append(
                EveningFigures(
                    evening_id=evening_id,
                    kind=kind,
                    club_id=placed[evening_id][0],
                    date=placed[evening_id][1],
                    played=played.get(evening_id, 0) if kind == TAROT else deals,
                    games=games if kind == ESCOPETTE else 0,
                    unreplayable=refused if kind == ESCOPETTE else 0,
                )
            )
    # The club figures' checkpoints that hold these evenings go: a statement a club.
    since: dict[int, dt.date] = {}
    for club_id, date in placed.values():
        since[club_id] = min(date, since.get(club_id, date))
    for club_id, date in since.items():
        FiguresCheckpoint.objects.filter(club_id=club_id, through__gte=date).delete()
    if not growing:  # some rows may go: those of these evenings and kinds are written anew
        PlayerEvening.objects.filter(evening_id__in=ids, kind__in=kinds).delete()
        EveningFigures.objects.filter(evening_id__in=ids, kind__in=kinds).delete()
    _write(PlayerEvening, players, ["evening", "player", "kind"])
    _write(EveningFigures, evenings, ["evening", "kind"])


def _write(model: Any, rows: list[Any], unique: list[str]) -> None:
    """Insert the rows, each over the row of the same ``unique`` fields if there is one."""
    fields = [f.name for f in model._meta.concrete_fields if f.name not in ("id", *unique)]
    model.objects.bulk_create(
        rows, batch_size=500, update_conflicts=True, unique_fields=unique, update_fields=fields
    )
