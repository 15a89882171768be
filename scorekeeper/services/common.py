"""What every service module shares: the refusal they raise, the evening's version bump and
the locks taken in the package's one order (see ``scorekeeper.services``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from scorekeeper.models import Evening, Game, Player
from scorekeeper.scoring.escopette import EscopetteDeal
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal
from scorekeeper.services.figures import refresh_figures

DealInputs = TarotDeal[int] | PassedDeal[int] | EscopetteDeal[int] | PaperDeal[int]


class ServiceError(Exception):
    """An action the rules of the app refuse; ``field`` names the input it concerns."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def evening_touch(evening: Evening, *, only: str | None = None, growing: bool = False) -> None:
    """What an evening shows changed: its figures are computed again (the read model; what
    changed in them, ``only`` and ``growing``, as ``refresh_figures`` takes it) and its version
    raised (``Evening.touch``), in the write's own transaction. The one place a service raises
    an evening's version; the evening in hand follows."""
    placed = {evening.pk: (evening.club_id, evening.date)}
    refresh_figures([evening.pk], placed=placed, only=only, growing=growing)
    evening.touch()


def evenings_of_touch(player: Player) -> None:
    """A renamed player: the sheets that show the name change too (and watchers see it). The
    figures read names live: only the versions are raised."""
    evenings = lock_evenings(Evening.objects.filter(games__seats__player=player).values("pk"))
    Evening.objects.filter(pk__in=evenings).touch()


# --- Locks, in the package's one order ----------------------------------------------------


def lock_evenings(evenings: Iterable[object]) -> list[int]:
    """Lock several evenings (their ids, or a query of ``pk`` values) one after another in
    id order, as every service does; their ids."""
    return list(
        Evening.objects.select_for_update()
        .filter(pk__in=evenings)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def lock_game(game_pk: int, *, club: bool = False, read: dict[str, Any] | None = None) -> Game:
    """The game read under its lock, its evening's lock taken first (evening, then game).

    ``game.evening`` is the evening read under its lock (with its club when ``club``);
    ``read``: annotations read with the game's row, under its lock, in the same statement.
    Raises Game.DoesNotExist for a game that is no more.
    """
    # One statement locking the evening alone (OF evening), a second the game alone.
    related = "evening__club" if club else "evening"
    evening = (
        Game.objects.select_for_update(of=("evening",)).select_related(related).get(pk=game_pk)
    ).evening
    game = Game.objects.select_for_update(of=("self",)).annotate(**(read or {})).get(pk=game_pk)
    game.evening = evening
    return game


def _check_open(evening: Evening) -> None:
    if evening.closed_at is not None:
        raise ServiceError(_("This evening is closed."))
