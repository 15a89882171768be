"""Deals: record, correct, delete and restore, each scored by the scoring service."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from scorekeeper.models import (
    Deal,
    DealChange,
    DealScore,
    DeletedDeal,
    Evening,
    Game,
    Player,
)
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import (
    EscopetteDeal,
    escopette_game,
    score_escopette_deal,
)
from scorekeeper.scoring.paper import PaperDeal, score_paper_deal
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal, score_deal
from scorekeeper.services.common import DealInputs, ServiceError, _bump, _check_open
from scorekeeper.services.deal_keys import KEY_IN_SNAPSHOT, deal_of_key
from scorekeeper.services.evenings import next_dealer, present_players

# --- Deals ---------------------------------------------------------------------------------


class DealGone(ServiceError):
    """The deal was deleted meanwhile (by another phone): nothing was changed."""


class DealAlreadyRestored(ServiceError):
    """The deletion was undone already (a double tap on Undo): ``deal`` is the deal back."""

    def __init__(self, message: str, deal: Deal | None) -> None:
        super().__init__(message)
        self.deal = deal


class DealNumberTaken(ServiceError):
    """The form was for deal ``number``, and the game has moved on (another phone saved).

    ``deal`` is the stored deal holding that number (None when the number is past the end,
    e.g. after a deletion); ``next_number`` is the number a save would get now.
    """

    def __init__(self, *, number: int, deal: Deal | None, next_number: int) -> None:
        super().__init__(
            _("Deal %(number)s was saved on another phone meanwhile.") % {"number": number},
            field="number",
        )
        self.number = number
        self.deal = deal
        self.next_number = next_number


def _escopette_order(game: Game) -> list[int]:
    return [seat.player_id for seat in game.seats.filter(present=True).order_by("position")]


def _score(game: Game, inputs: DealInputs) -> dict[int, int]:
    """Score one deal through the scoring service; raises ScoringError on bad input."""
    if game.kind == Game.Kind.ESCOPETTE:
        if not isinstance(inputs, EscopetteDeal):
            raise ServiceError(_("This game is L'escopette."))
        return score_escopette_deal(_escopette_order(game), inputs)
    if isinstance(inputs, EscopetteDeal):
        raise ServiceError(_("This game is French Tarot."))
    if isinstance(inputs, PaperDeal):
        return score_paper_deal(inputs)
    return score_deal(inputs, game.evening.house_rules)  # the rules the evening started with


def _escopette_deals(game: Game) -> list[EscopetteDeal[int]]:
    return [
        EscopetteDeal(stakes={int(k): v for k, v in stakes.items()})
        for stakes in game.deals.order_by("number").values_list("stakes", flat=True)
    ]


def _check_escopette_not_ended(game: Game) -> None:
    """Refuse a deal after the end of a game of L'escopette."""
    try:
        result = escopette_game(_escopette_order(game), game.target, _escopette_deals(game))
    except ScoringError:
        raise ServiceError(
            _(
                "The deals of this game cannot be replayed by the rules: "
                "put them right before adding one."
            )
        ) from None
    if result.winner is not None:
        raise ServiceError(_("This game has ended: no deal can be added."))


def _store(game: Game, deal: Deal, inputs: DealInputs, present: Sequence[int]) -> dict[str, Any]:
    """Score and save the deal; returns its inputs as a snapshot (for undo and history)."""
    scores = _score(game, inputs)
    deal.paper = isinstance(inputs, PaperDeal)
    if isinstance(inputs, TarotDeal):
        deal.passed = False
        deal.taker_id = inputs.taker
        deal.contract = str(inputs.contract)
        deal.bouts = inputs.bouts
        deal.points = Decimal(str(inputs.points))
        deal.partner_id = inputs.partner
        deal.petit_au_bout = inputs.petit_au_bout or ""
        deal.poignees = list(inputs.poignees)
        deal.chelem = inputs.chelem or ""
        deal.miseres = list(inputs.miseres)
        deal.stakes = {}
    elif isinstance(inputs, PassedDeal | PaperDeal):
        deal.passed = not deal.paper
        deal.taker_id = deal.partner_id = deal.bouts = deal.points = None
        deal.contract = deal.petit_au_bout = deal.chelem = ""
        deal.poignees, deal.miseres = [], []
        deal.stakes = {}
    else:
        deal.passed = False
        deal.stakes = {str(stake): winner for stake, winner in inputs.stakes.items()}
    deal.updated_at = timezone.now()
    new = deal.pk is None
    deal.save()
    if not new:
        deal.scores.all().delete()
    everyone = list(dict.fromkeys([*present, *scores]))
    DealScore.objects.bulk_create(
        DealScore(deal=deal, player_id=player, seated=player in scores, score=scores.get(player, 0))
        for player in everyone
    )
    return _snapshot(deal, present=everyone, seated=[p for p in everyone if p in scores])


def _person(user: User | None) -> User | None:
    """Who did it, as a row can name them (an anonymous user is nobody)."""
    return user if user is not None and user.is_authenticated else None


def _log(
    game: Game,
    action: str,
    *,
    deal: Deal | None = None,
    deleted: DeletedDeal | None = None,
    number: int,
    by: User | None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> None:
    """One line of the deal's history, in the transaction of the change itself."""
    DealChange.objects.create(
        game=game,
        deal=deal,
        deleted=deleted,
        number=number,
        action=action,
        by=_person(by),
        before=before,
        after=after,
    )


@transaction.atomic
def deal_record(
    *,
    game: Game,
    inputs: DealInputs,
    dealer: Player | None = None,
    created_by: User | None = None,
    idempotency_key: str | None = None,
    expected_number: int | None = None,
) -> Deal:
    """Score and store the next deal of a game. The same idempotency key stores it once:
    the very same deal sent again returns the deal stored; the key with another deal
    raises DealKeyUsed (see services.deal_keys).

    ``expected_number`` is the number the form showed: when the game has moved on meanwhile
    (another phone saved that deal), DealNumberTaken is raised instead of storing a copy.
    """
    game = Game.objects.select_for_update().select_related("evening").get(pk=game.pk)
    if idempotency_key:
        existing = deal_of_key(
            game, idempotency_key, inputs, dealer, expected_number, stored=_stored_inputs
        )
        if existing is not None:
            return existing
    _check_open(game.evening)
    if game.kind == Game.Kind.ESCOPETTE:
        _check_escopette_not_ended(game)
    present = present_players(game)
    dealer = dealer or next_dealer(game, present)
    number = (game.deals.aggregate(last=Max("number"))["last"] or 0) + 1
    if expected_number is not None and expected_number != number:
        taken = game.deals.filter(number=expected_number).select_related("dealer").first()
        raise DealNumberTaken(number=expected_number, deal=taken, next_number=number)
    deal = Deal(
        game=game,
        number=number,
        dealer=dealer,
        created_by=_person(created_by),
        idempotency_key=idempotency_key or None,
    )
    # The game's row is locked above: a second save with the same key waits for this one,
    # then finds its deal; numbers are taken one at a time.
    after = _store(game, deal, inputs, [p.pk for p in present])
    _log(game, DealChange.Action.RECORDED, deal=deal, number=number, by=created_by, after=after)
    _bump(game.evening)
    return deal


def _locked_deal(game: Game, deal: Deal) -> Deal:
    """The deal read again under the game's lock; DealGone if another phone deleted it."""
    fresh = Deal.objects.select_related("game").filter(pk=deal.pk, game=game).first()
    if fresh is None:
        raise DealGone(_("This deal was deleted meanwhile: nothing was changed."))
    return fresh


@transaction.atomic
def deal_update(
    *,
    deal: Deal,
    inputs: DealInputs,
    dealer: Player | None = None,
    changed_by: User | None = None,
) -> Deal:
    game = Game.objects.select_for_update().select_related("evening").get(pk=deal.game_id)
    _check_open(game.evening)
    deal = _locked_deal(game, deal)
    before = _snapshot(deal)
    if dealer is not None:
        deal.dealer = dealer
    after = _store(game, deal, inputs, before["present"])
    if game.kind == Game.Kind.ESCOPETTE:
        _check_escopette_sequence(game)
    if after != before:
        _log(
            game,
            DealChange.Action.CHANGED,
            deal=deal,
            number=deal.number,
            by=changed_by,
            before=before,
            after=after,
        )
    _bump(game.evening)
    return deal


def _check_escopette_sequence(game: Game) -> None:
    """After an edit or an undo, no deal may follow the end of the game."""
    try:
        escopette_game(_escopette_order(game), game.target, _escopette_deals(game))
    except ScoringError as error:
        if error.field != "deal":
            raise
        raise ServiceError(
            _(
                "With this change the game would end after deal %(number)s, "
                "yet later deals follow: delete them first."
            )
            % {"number": (error.deal or 1) - 1}
        ) from None


def _renumber(game: Game, *, from_number: int, shift: int) -> None:
    """Move every deal numbered from ``from_number`` on by ``shift``, keeping numbers unique."""
    later = game.deals.filter(number__gte=from_number)
    later.update(number=-(F("number") + shift))
    game.deals.filter(number__lt=0).update(number=-F("number"))


@transaction.atomic
def deal_delete(*, deal: Deal, deleted_by: User | None = None) -> DeletedDeal:
    game = Game.objects.select_for_update().select_related("evening").get(pk=deal.game_id)
    _check_open(game.evening)
    deal = _locked_deal(game, deal)  # a second delete of the same deal: DealGone
    snapshot = _snapshot(deal)
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
    _bump(game.evening)
    return deleted


@transaction.atomic
def deal_restore(*, deleted: DeletedDeal, restored_by: User | None = None) -> Deal:
    """Undo a deletion: the deal comes back at its number, later deals move on by one.

    Undone already (two taps on Undo at once): ``DealAlreadyRestored``, no second copy.
    """
    game = Game.objects.select_for_update().select_related("evening").get(pk=deleted.game_id)
    _check_open(game.evening)
    deal = _restore(game, deleted, restored_by)
    _bump(game.evening)
    return deal


@transaction.atomic
def deals_restore_all(*, evening: Evening, restored_by: User | None = None) -> list[Deal]:
    """Undo every deletion of the evening still undone: each deal back at its number.

    Deletions are undone last first (each number then means what it meant when that deal
    was deleted). All of them, or none (a refusal names the first that cannot).
    """
    games = list(
        Game.objects.select_for_update()
        .select_related("evening")
        .filter(evening=evening)
        .order_by("pk")
    )
    if not games:
        return []
    _check_open(games[0].evening)
    restored: list[Deal] = []
    for game in games:
        pending = DeletedDeal.objects.filter(game=game, restored_at__isnull=True).order_by("-pk")
        for deleted in pending:
            restored.append(_restore(game, deleted, restored_by))
    if restored:
        _bump(games[0].evening)
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
    after = _store(game, deal, _inputs_from_snapshot(snapshot), snapshot["present"])
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
    """Where the deal goes back, given the deletions made after it that are not undone.

    ``row.number`` is the deal's place when it was deleted. A later deletion before that
    place moves it up by one; one at or after it is renumbered as if this deal had never
    left (its own number, kept for its undo, moves on by one). So deletions undone in any
    order put every deal back at its original number.
    """
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


def _snapshot(
    deal: Deal, *, present: Sequence[int] | None = None, seated: Sequence[int] | None = None
) -> dict[str, Any]:
    """A deal's inputs as JSON; ``present`` and ``seated`` are read if not given."""
    if present is None:
        present = list(deal.scores.order_by("pk").values_list("player_id", flat=True))
    if seated is None:
        seated = list(
            deal.scores.filter(seated=True).order_by("pk").values_list("player_id", flat=True)
        )
    snapshot = {
        "dealer": deal.dealer_id,
        "created_by": deal.created_by_id,
        "present": list(present),
        "seated": list(seated),
        "passed": deal.passed,
        "taker": deal.taker_id,
        "contract": deal.contract,
        "bouts": deal.bouts,
        "points": str(Decimal(deal.points).quantize(Decimal("0.1")))
        if deal.points is not None
        else None,
        "partner": deal.partner_id,
        "petit_au_bout": deal.petit_au_bout,
        "poignees": list(deal.poignees),
        "chelem": deal.chelem,
        "stakes": dict(deal.stakes),
        "paper": {s.player_id: s.score for s in deal.scores.filter(seated=True)}
        if deal.paper
        else None,
    }
    if deal.miseres:  # only when there are some: snapshots without misères stay as they were
        snapshot["miseres"] = list(deal.miseres)
    return snapshot


def stored_deal_inputs(deal: Deal, rows: Sequence[DealScore]) -> DealInputs:
    """A stored deal's inputs from its score rows (prefetched: no query). Not a paper deal."""
    present = [row.player_id for row in rows]
    seated = [row.player_id for row in rows if row.seated]
    return _inputs_from_snapshot(_snapshot(deal, present=present, seated=seated))


def _inputs_from_snapshot(snapshot: dict[str, Any]) -> DealInputs:
    if snapshot["stakes"]:
        return EscopetteDeal(stakes={int(k): v for k, v in snapshot["stakes"].items()})
    seated = tuple(snapshot["seated"])
    if snapshot.get("paper"):  # JSON keys are text: back to player ids
        return PaperDeal(seated=seated, scores={int(k): v for k, v in snapshot["paper"].items()})
    if snapshot["passed"]:
        return PassedDeal(seated=seated)
    return TarotDeal(
        seated=seated,
        taker=snapshot["taker"],
        contract=snapshot["contract"],
        bouts=snapshot["bouts"],
        points=Decimal(snapshot["points"]),
        partner=snapshot["partner"],
        petit_au_bout=snapshot["petit_au_bout"] or None,
        poignees=tuple(snapshot["poignees"]),
        chelem=snapshot["chelem"] or None,
        miseres=tuple(snapshot.get("miseres") or ()),
    )


def _stored_inputs(deal: Deal) -> DealInputs:
    """The answers a stored deal was scored from."""
    return _inputs_from_snapshot(_snapshot(deal))
