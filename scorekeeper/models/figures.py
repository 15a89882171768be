"""Each player's figures of each evening, kept by the writes (the season pages add them up).

``PlayerEvening`` holds one player's figures of one evening and one game kind (total, deals,
takes, made, by contract, bonuses, L'escopette's games); ``EveningFigures`` the evening's own
counts (deals played, games). Both are recomputed from that one evening's stored scores by
``services.figures.refresh_figures``, which every service that changes an evening calls in
its own transaction (``services.common.evening_touch``): the reads never write, never guess.
``Tally`` is the figures in hand: counted from the scores' groups, added up, read from rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import models

from scorekeeper.models.clubs import Club, Player
from scorekeeper.models.deals import POIGNEE_KINDS, Deal
from scorekeeper.models.evenings import Evening, Game

TAROT = Game.Kind.TAROT
ESCOPETTE = Game.Kind.ESCOPETTE
KINDS = (TAROT, ESCOPETTE)
CONTRACTS = tuple(Deal.Contract.values)


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
        for name, value in vars(other).items():
            if isinstance(value, int):
                setattr(self, name, getattr(self, name) + value)
        for mine, theirs in ((self.contracts, other.contracts), (self.poignees, other.poignees)):
            for key, values in theirs.items():
                line = mine.setdefault(key, [0] * len(values))
                for index, value in enumerate(values):
                    line[index] += value


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
    *(f"{p}_{side}" for p in POIGNEE_KINDS for side in ("won", "lost")),
    "games", "won", "unreplayable",
)  # fmt: skip
#: The columns that are plain fields of ``Tally`` (the others are its contracts and poignées).
PLAIN_FIGURES = tuple(name for name in FIGURES if name in Tally.__dataclass_fields__)


def tally_of(row: dict[str, Any]) -> Tally:
    """The figures of a row (or of a sum of rows) named by their columns."""
    tally = Tally(**{name: row[name] or 0 for name in PLAIN_FIGURES})
    for contract in CONTRACTS:
        taken = row[f"{contract}_taken"] or 0
        if taken:
            tally.contracts[contract] = [
                taken, row[f"{contract}_made"] or 0, row[f"{contract}_points"] or 0
            ]  # fmt: skip
    for kind in POIGNEE_KINDS:
        won, lost = row[f"{kind}_won"] or 0, row[f"{kind}_lost"] or 0
        if won or lost:
            tally.poignees[kind] = [won, lost]
    return tally


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
