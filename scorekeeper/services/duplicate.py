"""Duplicate tournaments: the movement drawn when the first round is seated, each round
seated from it, and the cases a duplicate table may enter.

The movement (``scoring.duplicate``) is stored in ``Tournament.schedule`` as
``{"movement": Movement.to_json(), "players": [TournamentPlayer ids in movement order]}``.
A duplicate tournament keeps the players of its first round: a later round is seated only
while the same players are present. A deal saved at a duplicate table carries its case: one
of the table's cases this round, not yet played at that table.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from scorekeeper.models import Game, Tournament, TournamentTable
from scorekeeper.scoring.duplicate import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    DuplicateError,
    Movement,
    duplicate_movement,
)
from scorekeeper.scoring.seating import Table
from scorekeeper.services.common import ServiceError


def movement_of(tournament: Tournament) -> Movement | None:
    """The tournament's stored movement (None before its first round, or for free deals)."""
    data = (tournament.schedule or {}).get("movement")
    return Movement.from_json(data) if data else None


def movement_draw(tournament: Tournament, players: int) -> Movement:
    """The movement for ``players`` players (12 to 60, else ServiceError on ``players``)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ServiceError(
            _("A duplicate tournament needs %(least)s to %(most)s players: %(count)s are present.")
            % {"least": MIN_PLAYERS, "most": MAX_PLAYERS, "count": players},
            "players",
        )
    try:
        return duplicate_movement(
            players=players,
            rounds=tournament.rounds,
            deals_per_round=tournament.deals_per_round,
            seed=tournament.pk,
        )
    except DuplicateError as error:
        raise ServiceError(
            _("No movement fits %(count)s players over %(rounds)s rounds.")
            % {"count": players, "rounds": tournament.rounds},
            "rounds",
        ) from error


def duplicate_seat(tournament: Tournament, number: int) -> list[Table]:
    """Round ``number``'s tables from the movement, seat 1 dealing first; the movement is
    drawn and stored at round 1 from the players present (by name)."""
    present = list(
        tournament.entrants.filter(present=True)
        .order_by(Lower("player__name"), "player_id")
        .values_list("pk", "player_id")
    )
    player_of = dict(present)
    plan = tournament.schedule or {}
    if number == 1 or "movement" not in plan:
        movement = movement_draw(tournament, len(present))
        plan = {"movement": movement.to_json(), "players": [pk for pk, _player in present]}
        Tournament.objects.filter(pk=tournament.pk).update(schedule=plan)
        tournament.schedule = plan
    else:
        movement = Movement.from_json(plan["movement"])
        if sorted(plan["players"]) != sorted(player_of):
            raise ServiceError(
                _(
                    "A duplicate tournament keeps the players of its first round: register "
                    "again those who left, or withdraw those who came."
                ),
                "players",
            )
    ids = [player_of[pk] for pk in plan["players"]]
    return [
        Table(players=tuple(ids[index] for index in seats), first_dealer=0)
        for seats in movement.seating[number - 1]
    ]


@dataclass(frozen=True)
class TableCases:
    """A duplicate table's cases this round, and those it has played already."""

    cases: tuple[int, ...]
    played: frozenset[int]

    @property
    def next_case(self) -> int | None:
        return next((case for case in self.cases if case not in self.played), None)

    def refusal(self, case: int | None) -> str | None:
        """Why ``case`` cannot be entered at this table, in words; None when it can."""
        listed = ", ".join(str(case) for case in self.cases)
        if case is None:
            return _("Give the case number (this round: %(cases)s).") % {"cases": listed}
        if case not in self.cases:
            return _("Case %(case)s is not played at this table this round (%(cases)s).") % {
                "case": case,
                "cases": listed,
            }
        if case in self.played:
            return _("Case %(case)s has been entered at this table already.") % {"case": case}
        return None


def table_cases(game: Game) -> TableCases | None:
    """The cases of a duplicate tournament table's game; None for any other game (or one
    whose tournament keeps no movement: its cases are not checked)."""
    found = (
        TournamentTable.objects.filter(
            game_id=game.pk, round__tournament__kind=Tournament.Kind.DUPLICATE
        )
        .values_list("round__tournament__schedule", "round__number", "number")
        .first()
    )
    if found is None or "movement" not in (found[0] or {}):
        return None
    schedule, round_number, table_number = found
    cases = Movement.from_json(schedule["movement"]).cases(round_number - 1, table_number - 1)
    played = game.deals.exclude(case_number=None).values_list("case_number", flat=True)
    return TableCases(cases=tuple(cases), played=frozenset(played))


def case_check(game: Game, case: int | None) -> int | None:
    """The case to store with a deal of ``game``: ``case`` at a duplicate table, checked
    (ServiceError on ``case_number`` otherwise); None at any other table."""
    cases = table_cases(game)
    if cases is None:
        return None
    refusal = cases.refusal(case)
    if refusal is not None:
        raise ServiceError(refusal, "case_number")
    return case
