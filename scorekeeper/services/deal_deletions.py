"""Deleting deals and putting them back: Undo, one at a time or all in their order.

A deleted deal is kept (``DeletedDeal``) with its inputs, its number and its one-time key,
so that Undo puts it back where it was and a key sent again finds it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from scorekeeper.models import Deal, DealChange, DeletedDeal, Evening, Game
from scorekeeper.services.common import _check_open, evening_touch, lock_game
from scorekeeper.services.costly import charge_old_evening
from scorekeeper.services.deal_keys import KEY_IN_SNAPSHOT
from scorekeeper.services.deal_snapshots import deal_snapshot, snapshot_inputs
from scorekeeper.services.deal_totals import game_totals_keep
from scorekeeper.services.deals import (
    DealAlreadyRestored,
    DealGone,
    _check_escopette_sequence,
    _locked_deal,
    _log,
    _person,
    _renumber,
    _store,
)


@transaction.atomic
def deal_delete(*, deal: Deal, deleted_by: User | None = None) -> DeletedDeal:
    game = lock_game(deal.game_id)
    _check_open(game.evening)
    charge_old_evening(game.evening, _person(deleted_by))
    deal = _locked_deal(game, deal)  # a second delete of the same deal: DealGone
    snapshot = deal_snapshot(deal)
    kept = dict(snapshot)
    if deal.idempotency_key:  # its undo gives the key back: the key resent is "already saved"
        kept[KEY_IN_SNAPSHOT] = deal.idempotency_key
    number = deal.number
    deleted = DeletedDeal.objects.create(
        game=game, number=number, snapshot=kept, deleted_by=_person(deleted_by)
    )
    deal.changes.update(deleted=deleted)  # the history follows the deleted deal
    _log(
        game,
        DealChange.Action.DELETED,
        deleted=deleted,
        number=number,
        by=deleted_by,
        before=snapshot,
    )
    deal.scores.all().delete()
    deal.delete()
    _renumber(game, from_number=number + 1, shift=-1)
    if game.kind == Game.Kind.ESCOPETTE:  # the game may now end before later deals
        _check_escopette_sequence(game)
    game_totals_keep(game)
    evening_touch(game.evening)
    return deleted


@transaction.atomic
def deal_restore(*, deleted: DeletedDeal, restored_by: User | None = None) -> Deal:
    """Undo a deletion: the deal comes back at its number, later deals move on by one.

    Undone already (two taps on Undo at once): ``DealAlreadyRestored``, no second copy.
    """
    game = lock_game(deleted.game_id)
    _check_open(game.evening)
    charge_old_evening(game.evening, _person(restored_by))
    deal = _restore(game, deleted, restored_by)
    game_totals_keep(game)
    evening_touch(game.evening)
    return deal


@transaction.atomic
def deals_restore_all(*, evening: Evening, restored_by: User | None = None) -> list[Deal]:
    """Undo every deletion of the evening still undone: each deal back at its number.

    Deletions are undone last first (each number then means what it meant when that deal
    was deleted). All of them, or none (a refusal names the first that cannot).
    """
    evening = Evening.objects.select_for_update().get(pk=evening.pk)  # the evening, then its games
    games = list(Game.objects.select_for_update().filter(evening=evening).order_by("pk"))
    if not games:
        return []
    for game in games:
        game.evening = evening
    _check_open(evening)
    charge_old_evening(evening, _person(restored_by))
    restored: list[Deal] = []
    for game in games:
        pending = DeletedDeal.objects.filter(game=game, restored_at__isnull=True).order_by("-pk")
        before = len(restored)
        for deleted in pending:
            restored.append(_restore(game, deleted, restored_by))
        if len(restored) > before:
            game_totals_keep(game)
    if restored:
        evening_touch(evening)
    return restored


def _restore(game: Game, deleted: DeletedDeal, restored_by: User | None) -> Deal:
    """Put one deleted deal back; the caller holds the game's lock."""
    row = DeletedDeal.objects.select_for_update().filter(pk=deleted.pk, game=game).first()
    if row is None:
        raise DealGone(_("This deleted deal is no longer kept."))
    if row.restored_at is not None:
        back = row.restored_as
        raise DealAlreadyRestored(
            _("Deal %(number)s is already back.")
            % {"number": back.number if back is not None else row.number},
            back,
        )
    snapshot: dict[str, Any] = row.snapshot
    last = game.deals.aggregate(last=Max("number"))["last"] or 0
    number = min(_number_before_later_deletions(game, row), last + 1)
    _renumber(game, from_number=number, shift=1)
    deal = Deal(
        game=game,
        number=number,
        dealer_id=snapshot["dealer"],
        created_by_id=snapshot.get("created_by"),
        idempotency_key=snapshot.get(KEY_IN_SNAPSHOT) or None,
    )
    after = _store(game, deal, snapshot_inputs(snapshot), snapshot["present"])
    if game.kind == Game.Kind.ESCOPETTE:
        _check_escopette_sequence(game)
    row.restored_at = timezone.now()
    row.restored_as = deal
    row.save(update_fields=["restored_at", "restored_as"])
    row.changes.update(deal=deal)  # its history is the deal's again
    _log(
        game,
        DealChange.Action.RESTORED,
        deal=deal,
        deleted=row,
        number=number,
        by=restored_by,
        after=after,
    )
    return deal


def _number_before_later_deletions(game: Game, row: DeletedDeal) -> int:
    """Where the deal goes back, given the later deletions not undone, so that deletions undone
    in any order put every deal back at its original number."""
    number = row.number
    later = DeletedDeal.objects.select_for_update().filter(
        game=game, restored_at__isnull=True, pk__gt=row.pk
    )
    for other in later.order_by("pk"):
        if other.number < number:
            number -= 1
        else:
            other.number += 1
            other.save(update_fields=["number"])
    return number
