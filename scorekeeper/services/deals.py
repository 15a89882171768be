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
    DealScore,
    DeletedDeal,
    Game,
    Player,
)
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import (
    EscopetteDeal,
    escopette_game,
    score_escopette_deal,
)
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal, score_deal
from scorekeeper.services.common import DealInputs, ServiceError, _bump, _check_open
from scorekeeper.services.evenings import next_dealer, present_players

# --- Deals ---------------------------------------------------------------------------------


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
    return score_deal(inputs)


def _escopette_deals(game: Game) -> list[EscopetteDeal[int]]:
    return [
        EscopetteDeal(stakes={int(k): v for k, v in stakes.items()})
        for stakes in game.deals.order_by("number").values_list("stakes", flat=True)
    ]


def _check_escopette_not_ended(game: Game) -> None:
    """Refuse a deal after the end of a game of L'escopette."""
    result = escopette_game(_escopette_order(game), game.target, _escopette_deals(game))
    if result.winner is not None:
        raise ServiceError(_("This game has ended: no deal can be added."))


def _store(game: Game, deal: Deal, inputs: DealInputs, present: Sequence[int]) -> None:
    scores = _score(game, inputs)
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
        deal.stakes = {}
    elif isinstance(inputs, PassedDeal):
        deal.passed = True
        deal.taker_id = deal.partner_id = deal.bouts = deal.points = None
        deal.contract = deal.petit_au_bout = deal.chelem = ""
        deal.poignees = []
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
    """Score and store the next deal of a game. The same idempotency key stores it once.

    ``expected_number`` is the number the form showed: when the game has moved on meanwhile
    (another phone saved that deal), DealNumberTaken is raised instead of storing a copy.
    """
    game = Game.objects.select_for_update().select_related("evening").get(pk=game.pk)
    if idempotency_key:
        existing = Deal.objects.filter(idempotency_key=idempotency_key).first()
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
        created_by=created_by,
        idempotency_key=idempotency_key or None,
    )
    # The game's row is locked above: a second save with the same key waits for this one,
    # then finds its deal; numbers are taken one at a time.
    _store(game, deal, inputs, [p.pk for p in present])
    _bump(game.evening)
    return deal


@transaction.atomic
def deal_update(*, deal: Deal, inputs: DealInputs, dealer: Player | None = None) -> Deal:
    game = Game.objects.select_for_update().select_related("evening").get(pk=deal.game_id)
    _check_open(game.evening)
    deal = Deal.objects.select_related("game").get(pk=deal.pk)
    if dealer is not None:
        deal.dealer = dealer
    present = list(deal.scores.values_list("player_id", flat=True))
    _store(game, deal, inputs, present)
    if game.kind == Game.Kind.ESCOPETTE:
        _check_escopette_sequence(game)
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
    deal = Deal.objects.get(pk=deal.pk)
    snapshot = _snapshot(deal)
    number = deal.number
    deal.scores.all().delete()
    deal.delete()
    _renumber(game, from_number=number + 1, shift=-1)
    deleted = DeletedDeal.objects.create(
        game=game, number=number, snapshot=snapshot, deleted_by=deleted_by
    )
    _bump(game.evening)
    return deleted


@transaction.atomic
def deal_restore(*, deleted: DeletedDeal) -> Deal:
    """Undo a deletion: the deal comes back at its number, later deals move on by one."""
    game = Game.objects.select_for_update().select_related("evening").get(pk=deleted.game_id)
    _check_open(game.evening)
    snapshot: dict[str, Any] = deleted.snapshot
    last = game.deals.aggregate(last=Max("number"))["last"] or 0
    number = min(deleted.number, last + 1)
    _renumber(game, from_number=number, shift=1)
    deal = Deal(
        game=game,
        number=number,
        dealer_id=snapshot["dealer"],
        created_by_id=snapshot.get("created_by"),
    )
    _store(game, deal, _inputs_from_snapshot(snapshot), snapshot["present"])
    if game.kind == Game.Kind.ESCOPETTE:
        _check_escopette_sequence(game)
    deleted.delete()
    _bump(game.evening)
    return deal


def _snapshot(deal: Deal) -> dict[str, Any]:
    return {
        "dealer": deal.dealer_id,
        "created_by": deal.created_by_id,
        "present": list(deal.scores.values_list("player_id", flat=True)),
        "seated": list(
            deal.scores.filter(seated=True).order_by("pk").values_list("player_id", flat=True)
        ),
        "passed": deal.passed,
        "taker": deal.taker_id,
        "contract": deal.contract,
        "bouts": deal.bouts,
        "points": str(deal.points) if deal.points is not None else None,
        "partner": deal.partner_id,
        "petit_au_bout": deal.petit_au_bout,
        "poignees": list(deal.poignees),
        "chelem": deal.chelem,
        "stakes": dict(deal.stakes),
    }


def _inputs_from_snapshot(snapshot: dict[str, Any]) -> DealInputs:
    if snapshot["stakes"]:
        return EscopetteDeal(stakes={int(k): v for k, v in snapshot["stakes"].items()})
    seated = tuple(snapshot["seated"])
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
    )
