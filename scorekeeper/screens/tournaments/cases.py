"""What the printed pages of a duplicate tournament show of its movement: each case's label
(the hand each seat takes, where the case goes round by round), each table's cases round by
round, and who sits out a round."""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import pgettext_lazy

from scorekeeper.models import Tournament
from scorekeeper.scoring.duplicate import Movement

# The hand each seat takes from a case, as printed on the case: seat 1 takes North's.
HANDS = (
    pgettext_lazy("hand", "N"),
    pgettext_lazy("hand", "E"),
    pgettext_lazy("hand", "S"),
    pgettext_lazy("hand", "W"),
)


def case_labels(movement: Movement) -> list[tuple[int, list[tuple[int, int]]]]:
    """Every case, with the (round, table) where it is played, 1-based."""
    where: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for round_index, sets in enumerate(movement.set_at):
        for table_index, case_set in enumerate(sets):
            where[case_set].append((round_index + 1, table_index + 1))
    per_set = movement.deals_per_round
    return [(case, where[(case - 1) // per_set]) for case in range(1, movement.sets * per_set + 1)]


def table_rounds(movement: Movement, table: int) -> list[tuple[int, tuple[int, ...]]]:
    """A table's cases in each round: (round, cases), 1-based."""
    return [(r + 1, movement.cases(r, table - 1)) for r in range(movement.rounds)]


def sitting_out(tournament: Tournament, movement: Movement | None, number: int) -> list[str]:
    """The names of the players the movement sits out in round ``number``."""
    if movement is None:
        return []
    ids = tournament.schedule["players"]
    out = [ids[index] for index in movement.sitting_out(number - 1)]
    names = dict(tournament.entrants.filter(pk__in=out).values_list("pk", "player__name"))
    return sorted(names[pk] for pk in out)
