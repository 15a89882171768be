"""A new deal's one-time key: the very same deal sent twice is stored once, and a key that
comes back with another deal is refused in words. An undo gives a deleted deal its key back."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import Exists, F, OuterRef, Subquery
from django.utils.translation import gettext as _

from scorekeeper.models import Deal, DeletedDeal, Game, Player, TournamentTable, stored_inputs
from scorekeeper.services.common import DealInputs, ServiceError


class DealKeyUsed(ServiceError):
    """The one-time key came back with another deal: a different deal number or different
    answers from the deal it stored (an old address reloaded, say). Nothing was saved.

    ``deal`` is the deal the key stored (None when that deal was deleted since).
    """

    def __init__(self, message: str, deal: Deal | None) -> None:
        super().__init__(message)
        self.deal = deal


#: Where a deleted deal's snapshot keeps its one-time key, so that its undo restores it.
KEY_IN_SNAPSHOT = "idempotency_key"


def save_facts_read(key: str | None) -> dict[str, Any]:
    """What a save decides on, read with its game once it holds the game's lock, in the same
    statement (``common.lock_game``'s ``read``): the game's ``last_number`` (None before its
    first deal), the deal ``key`` stored (``keyed``), whether a deleted deal waits for its
    undo (``deletion_waiting``: its key may be this one) and, at a tournament table, the
    deals it may enter (``planned``)."""
    deals = Deal.objects.filter(game_id=OuterRef("pk"))
    return {
        "last_number": Subquery(deals.order_by("-number").values("number")[:1]),
        # no deal is stored with an empty key
        "keyed": Subquery(deals.filter(idempotency_key=key or "").order_by("pk").values("pk")[:1]),
        "deletion_waiting": Exists(
            DeletedDeal.objects.filter(game_id=OuterRef("pk"), restored_at__isnull=True)
        ),
        "planned": Subquery(
            TournamentTable.objects.filter(game_id=OuterRef("pk"))
            .order_by()
            .values(due=F("round__tournament__deals_per_round") + F("extra_deals"))[:1]
        ),
    }


def _comparable(inputs: DealInputs) -> tuple[str, dict[str, Any]]:
    """What two deals' answers are compared by: equal when the same (order of seats aside)."""
    values = dict(vars(inputs))
    for name, value in values.items():
        if name in {"seated", "poignees"}:
            values[name] = sorted(value, key=str)
        elif name == "points" and value is not None:
            values[name] = Decimal(str(value)).normalize()
    return type(inputs).__name__, values


def deal_of_key(
    game: Game, key: str, inputs: DealInputs, dealer: Player | None, expected_number: int | None
) -> Deal | None:
    """The deal already stored with this key when it is the very same deal sent again; None
    when the key stored nothing; DealKeyUsed when it stored another deal, or one deleted since.
    ``game`` comes with its facts (``save_facts_read``)."""
    existing = Deal.objects.get(pk=game.keyed) if game.keyed is not None else None
    if existing is None:
        if not game.deletion_waiting:  # no snapshot could hold the key
            return None
        deleted = (
            DeletedDeal.objects.filter(game=game, restored_at__isnull=True)
            .filter(**{f"snapshot__{KEY_IN_SNAPSHOT}": key})
            .first()
        )
        if deleted is None:
            return None
        raise DealKeyUsed(
            _(
                "This deal was not saved: the form was the one of deal %(number)s, which was "
                "deleted since. Check the answers and save again."
            )
            % {"number": deleted.number},
            None,
        )
    same = (
        (expected_number is None or expected_number == existing.number)
        and (dealer is None or dealer.pk == existing.dealer_id)
        and _comparable(stored_inputs(existing, game.kind)) == _comparable(inputs)
    )
    if not same:
        raise DealKeyUsed(
            _(
                "This deal was not saved: the form was the one of deal %(number)s, already "
                "saved with other answers. Check the answers and save again."
            )
            % {"number": existing.number},
            existing,
        )
    return existing
