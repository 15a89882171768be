"""A new deal's one-time key: the very same deal sent twice is stored once, and a key that
comes back with another deal is refused in words. An undo gives a deleted deal its key back."""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class SaveFacts:
    """What a save decides on, read with its game once it holds the game's lock."""

    last_number: int  # the game's last deal number (0 before its first deal)
    keyed: int | None  # the deal the one-time key stored, if any
    deletion_waiting: bool  # a deleted deal of the game not put back (its key may be this one)
    planned: int | None = None  # a tournament table's game: the deals it may enter


def save_facts_read(key: str | None) -> dict[str, Any]:
    """What ``save_facts`` reads, as the game's annotations (``common.lock_game``'s ``read``):
    the game's row under its lock and these in one query."""
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


def save_facts(game: Game, key: str | None) -> SaveFacts:
    """The game's last deal number, the deal ``key`` stored, whether a deletion waits for
    its undo and, for a tournament table, how many deals it may enter: read with ``game``
    under its lock (``save_facts_read``; a save decides on them)."""
    return SaveFacts(
        last_number=game.last_number or 0,
        keyed=game.keyed if key else None,
        deletion_waiting=bool(game.deletion_waiting),
        planned=game.planned,
    )


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
    game: Game,
    key: str,
    inputs: DealInputs,
    dealer: Player | None,
    expected_number: int | None,
    *,
    facts: SaveFacts,
) -> Deal | None:
    """The deal already stored with this key when it is the very same deal sent again; None
    when the key stored nothing; DealKeyUsed when it stored another deal, or one deleted since."""
    existing = Deal.objects.get(pk=facts.keyed) if facts.keyed is not None else None
    if existing is None:
        if not facts.deletion_waiting:  # no snapshot could hold the key
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
