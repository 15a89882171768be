"""Each player's figures of each evening, kept by the writes (the season pages add them up).

``PlayerEvening`` holds one player's figures of one evening and one game kind (total, deals,
takes, made, by contract, bonuses, L'escopette's games); ``EveningFigures`` the evening's own
counts (deals played, games). Both are recomputed from that one evening's stored scores by
``refresh_figures``, which every service that changes an evening calls in its own
transaction (through ``services.common._bump``): the reads never write, never guess.
``Tally`` is the figures in hand: counted from the scores' groups, added up, read from rows.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import models
from django.db.models import (
    BooleanField,
    Case,
    CharField,
    Count,
    F,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)

from scorekeeper.models.clubs import Club, Player
from scorekeeper.models.deals import Deal, DealScore
from scorekeeper.models.evenings import Evening, Game
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import EscopetteDeal, escopette_game
from scorekeeper.scoring.tarot import TARGETS

TAROT = Game.Kind.TAROT
ESCOPETTE = Game.Kind.ESCOPETTE
KINDS = (TAROT, ESCOPETTE)
CONTRACTS = tuple(Deal.Contract.values)
POIGNEES = ("simple", "double", "triple")

CHELEM_MADE = ("announced", "unannounced")

# What each stored score was, as the database sees it.
OUT, PASSED, TAKER, PARTNER, DEFENCE = "out", "passed", "taker", "partner", "defence"


def _made() -> Q:
    """The contract was made: the attack's points reached the target for its bouts."""
    made = Q()
    for bouts, target in TARGETS.items():
        made |= Q(deal__bouts=bouts, deal__points__gte=target)
    return made


ROLE = Case(
    When(seated=False, then=Value(OUT)),
    When(deal__passed=True, then=Value(PASSED)),
    When(deal__paper=True, then=Value(PASSED)),  # scores only: in totals, not in statistics
    When(deal__taker_id=F("player_id"), then=Value(TAKER)),
    When(deal__partner_id=F("player_id"), then=Value(PARTNER)),
    default=Value(DEFENCE),
    output_field=CharField(),
)
MADE = Case(When(_made(), then=Value(True)), default=Value(False), output_field=BooleanField())


@dataclass
class Tally:
    """One player's figures over some deals: an evening, a season, all time."""

    total: int = 0
    deals: int = 0  # deals played: seated, not passed
    takes: int = 0
    made: int = 0
    called: int = 0  # as the called partner (5 players), the taker not alone
    called_made: int = 0
    called_points: int = 0
    petit_won: int = 0  # the petit au bout went to the player's side
    petit_lost: int = 0
    chelem_won: int = 0
    chelem_lost: int = 0
    chelem_failed: int = 0  # announced by the player's attack, and failed
    contracts: dict[str, list[int]] = field(default_factory=dict)  # taken, made, points
    poignees: dict[str, list[int]] = field(default_factory=dict)  # to the side, against
    games: int = 0  # L'escopette: games played
    won: int = 0  # L'escopette: games won
    unreplayable: int = 0  # L'escopette: games the rules cannot replay (no winner counted)

    def add(self, other: Tally) -> None:
        self.total += other.total
        self.deals += other.deals
        self.games += other.games
        self.won += other.won
        self.unreplayable += other.unreplayable
        self.takes += other.takes
        self.made += other.made
        self.called += other.called
        self.called_made += other.called_made
        self.called_points += other.called_points
        self.petit_won += other.petit_won
        self.petit_lost += other.petit_lost
        self.chelem_won += other.chelem_won
        self.chelem_lost += other.chelem_lost
        self.chelem_failed += other.chelem_failed
        for key, (taken, made, points) in other.contracts.items():
            line = self.contracts.get(key)
            if line is None:
                self.contracts[key] = [taken, made, points]
            else:
                line[0] += taken
                line[1] += made
                line[2] += points
        for key, (won, lost) in other.poignees.items():
            pair = self.poignees.get(key)
            if pair is None:
                self.poignees[key] = [won, lost]
            else:
                pair[0] += won
                pair[1] += lost

    def count(self, line: dict[str, Any]) -> None:
        """Add one group of the aggregation: ``n`` scores of the same kind of deal."""
        n, points, role, made = line["n"], line["points"], line["role"], line["made"]
        self.total += points
        if role in (OUT, PASSED):
            return
        self.deals += n
        attack = role in (TAKER, PARTNER)
        if role == TAKER:
            self.takes += n
            self.made += n if made else 0
            contract = self.contracts.setdefault(line["contract"], [0, 0, 0])
            contract[0] += n
            contract[1] += n if made else 0
            contract[2] += points
        elif role == PARTNER:
            self.called += n
            self.called_made += n if made else 0
            self.called_points += points
        petit = line["petit_au_bout"]
        if petit:
            if (petit == "attack") == attack:
                self.petit_won += n
            else:
                self.petit_lost += n
        chelem = line["chelem"]
        if chelem in CHELEM_MADE:
            self.chelem_won += n if attack else 0
            self.chelem_lost += 0 if attack else n
        elif chelem == "defense":
            self.chelem_won += 0 if attack else n
            self.chelem_lost += n if attack else 0
        elif chelem == "announced_failed" and attack:
            self.chelem_failed += n
        won = made == attack  # a poignée goes to the side that wins the deal
        for kind in line["poignees"] or ():
            pair = self.poignees.setdefault(kind, [0, 0])
            pair[0 if won else 1] += n


class PlayerEvening(models.Model):
    """One player's figures of one evening, for one game kind (rewritten with the evening)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10)
    total = models.IntegerField(default=0)
    deals = models.IntegerField(default=0)  # deals played: seated, not passed
    takes = models.IntegerField(default=0)
    made = models.IntegerField(default=0)
    called = models.IntegerField(default=0)
    called_made = models.IntegerField(default=0)
    called_points = models.IntegerField(default=0)
    petit_won = models.IntegerField(default=0)
    petit_lost = models.IntegerField(default=0)
    chelem_won = models.IntegerField(default=0)
    chelem_lost = models.IntegerField(default=0)
    chelem_failed = models.IntegerField(default=0)
    petite_taken = models.IntegerField(default=0)
    petite_made = models.IntegerField(default=0)
    petite_points = models.IntegerField(default=0)
    garde_taken = models.IntegerField(default=0)
    garde_made = models.IntegerField(default=0)
    garde_points = models.IntegerField(default=0)
    garde_sans_taken = models.IntegerField(default=0)
    garde_sans_made = models.IntegerField(default=0)
    garde_sans_points = models.IntegerField(default=0)
    garde_contre_taken = models.IntegerField(default=0)
    garde_contre_made = models.IntegerField(default=0)
    garde_contre_points = models.IntegerField(default=0)
    simple_won = models.IntegerField(default=0)
    simple_lost = models.IntegerField(default=0)
    double_won = models.IntegerField(default=0)
    double_lost = models.IntegerField(default=0)
    triple_won = models.IntegerField(default=0)
    triple_lost = models.IntegerField(default=0)
    games = models.IntegerField(default=0)  # L'escopette: games played
    won = models.IntegerField(default=0)  # L'escopette: games won
    unreplayable = models.IntegerField(default=0)  # L'escopette: games without a winner read

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "player", "kind"], name="player_evening_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.evening_id} {self.player_id} {self.kind}"


#: The columns that add up over evenings (everything but the keys).
FIGURES = (
    "total", "deals", "takes", "made", "called", "called_made", "called_points",
    "petit_won", "petit_lost", "chelem_won", "chelem_lost", "chelem_failed",
    *(f"{c}_{part}" for c in CONTRACTS for part in ("taken", "made", "points")),
    *(f"{p}_{side}" for p in POIGNEES for side in ("won", "lost")),
    "games", "won", "unreplayable",
)  # fmt: skip
_PLAIN = tuple(name for name in FIGURES if name in Tally.__dataclass_fields__)


def tally_of(row: dict[str, Any]) -> Tally:
    """The figures of a row (or of a sum of rows) named by their columns."""
    tally = Tally(**{name: row[name] or 0 for name in _PLAIN})
    for contract in CONTRACTS:
        taken = row[f"{contract}_taken"] or 0
        if taken:
            tally.contracts[contract] = [
                taken, row[f"{contract}_made"] or 0, row[f"{contract}_points"] or 0
            ]  # fmt: skip
    for kind in POIGNEES:
        won, lost = row[f"{kind}_won"] or 0, row[f"{kind}_lost"] or 0
        if won or lost:
            tally.poignees[kind] = [won, lost]
    return tally


def _columns(tally: Tally) -> dict[str, int]:
    columns = {name: getattr(tally, name) for name in _PLAIN}
    for contract, (taken, made, points) in tally.contracts.items():
        columns[f"{contract}_taken"] = taken
        columns[f"{contract}_made"] = made
        columns[f"{contract}_points"] = points
    for kind, (won, lost) in tally.poignees.items():
        columns[f"{kind}_won"] = won
        columns[f"{kind}_lost"] = lost
    return columns


class EveningFigures(models.Model):
    """One evening's own counts for one game kind (rewritten with its players' rows)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    date = models.DateField()  # the evening's, when written: a move drops the checkpoints after
    played = models.IntegerField(default=0)  # deals played (passed deals not counted)
    games = models.IntegerField(default=0)  # L'escopette: games with at least one deal
    unreplayable = models.IntegerField(default=0)  # L'escopette: games the rules refuse

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["evening", "kind"], name="evening_figures_once"),
        ]

    def __str__(self) -> str:
        return f"{self.evening_id} {self.kind}"


class FiguresCheckpoint(models.Model):
    """The club figures' state (``scoring.club_state.FiguresState``) after the club's French
    Tarot deals from ``start`` (None: the first) through ``through``, pickled as ``format``
    says; read only while ``format`` is the reader's (``reads.club_figures.FORMAT``).

    A change to an evening on or before ``through`` deletes it in the change's transaction
    (``refresh_figures``): a correction of an older deal rebuilds from the checkpoint before.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    start = models.DateField(null=True, blank=True)
    through = models.DateField()
    format = models.PositiveIntegerField()
    name = models.CharField(max_length=40)  # a digest of the evenings it holds at their versions
    state = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "start", "through"], name="figures_checkpoint_once"
            ),
        ]
        indexes = [models.Index(fields=["club", "through"])]

    def __str__(self) -> str:
        return f"{self.club_id} {self.start}..{self.through} f{self.format}"


def _lines(scores: QuerySet[DealScore]) -> list[dict[str, Any]]:
    """The scores grouped by player and kind of deal, named as ``Tally.count`` reads them."""
    lines = list(
        scores.values(
            "player_id",
            evening=F("deal__game__evening_id"),
            contract=F("deal__contract"),
            petit_au_bout=F("deal__petit_au_bout"),
            chelem=F("deal__chelem"),
            poignees=F("deal__poignees"),
            role=ROLE,
            made=MADE,
        )
        .annotate(n=Count("pk"), points=Sum("score"))
        .order_by()
    )
    for line in lines:
        line["made"] = bool(line["made"])
        if isinstance(line["poignees"], str):  # a driver that leaves JSON as text
            line["poignees"] = json.loads(line["poignees"])
    return lines


Figures = dict[int, dict[int, Tally]]  # evening id -> player id -> figures


def _tarot(ids: list[int]) -> tuple[Figures, dict[int, int]]:
    """The evenings' French Tarot figures per player, and their deals played (one query)."""
    tallies: Figures = {}
    played: dict[int, int] = {}
    scores = DealScore.objects.filter(deal__game__evening_id__in=ids, deal__game__kind=TAROT)
    for line in _lines(scores):
        evening = line["evening"]
        tallies.setdefault(evening, {}).setdefault(line["player_id"], Tally()).count(line)
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
    evening_ids: Iterable[int], *, placed: dict[int, tuple[int, dt.date]] | None = None
) -> None:
    """The figures of these evenings, computed again from their stored scores and written
    (the same few queries for any number of evenings). Call it in the write's transaction;
    ``placed``: each evening's club and date, when the caller holds them."""
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
    tarot, played = _tarot(ids)
    escopette, counts = _escopette(ids)
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
    # The club figures' checkpoints that hold these evenings (at their old dates or new) go.
    since: dict[int, dt.date] = {}
    old = EveningFigures.objects.filter(evening_id__in=ids).values_list("club_id", "date")
    for club_id, date in [*placed.values(), *old]:
        since[club_id] = min(date, since.get(club_id, date))
    for club_id, date in since.items():
        FiguresCheckpoint.objects.filter(club_id=club_id, through__gte=date).delete()
    PlayerEvening.objects.filter(evening_id__in=ids).delete()
    EveningFigures.objects.filter(evening_id__in=ids).delete()
    PlayerEvening.objects.bulk_create(players, batch_size=500)
    EveningFigures.objects.bulk_create(evenings, batch_size=500)
