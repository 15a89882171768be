"""What every service module shares: the refusal they raise, the evening's version bump and
the locks taken in the package's one order (see ``scorekeeper.services``)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F
from django.utils.translation import gettext as _

from scorekeeper.models import Deal, Evening, Game, Player
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


# --- Clubs, members and invitations -------------------------------------------------


def _bump(evening: Evening, *, added_deal: Deal | None = None) -> None:
    """A new version of the evening. ``added_deal``: the deal just saved was its only change
    (tonight's figures add that deal to the version before's), named with the version it
    made (``added_version``, the same new version); any other change says None."""
    # The read model, kept in the write's transaction.
    refresh_figures([evening.pk], placed={evening.pk: (evening.club_id, evening.date)})
    if added_deal is None:
        Evening.objects.filter(pk=evening.pk).update(version=F("version") + 1, added_deal=None)
        return
    Evening.objects.filter(pk=evening.pk).update(
        version=F("version") + 1, added_deal=added_deal.pk, added_version=F("version") + 1
    )
    # The saver holds the evening's row (deal_record's lock): the version it read is the one
    # raised, and its answer goes on from the evening in hand without reading it again.
    evening.version += 1
    evening.added_deal, evening.added_version = added_deal.pk, evening.version


def _bump_evenings_of(player: Player) -> None:
    """A renamed player: the sheets that show the name change too (and watchers see it)."""
    evenings = lock_evenings(Evening.objects.filter(games__seats__player=player).values("pk"))
    Evening.objects.filter(pk__in=evenings).update(version=F("version") + 1, added_deal=None)


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


def lock_game(game_pk: int, *, club: bool = False) -> Game:
    """The game read under its lock, its evening's lock taken first (evening, then game).

    ``game.evening`` is the evening read under its lock (with its club when ``club``).
    Raises Game.DoesNotExist for a game that is no more.
    """
    # One statement locking the evening alone (OF evening), a second the game alone.
    related = "evening__club" if club else "evening"
    evening = (
        Game.objects.select_for_update(of=("evening",)).select_related(related).get(pk=game_pk)
    ).evening
    game = Game.objects.select_for_update(of=("self",)).get(pk=game_pk)
    game.evening = evening
    return game


def _check_open(evening: Evening) -> None:
    if evening.closed_at is not None:
        raise ServiceError(_("This evening is closed."))
