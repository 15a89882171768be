"""Deals: record and correct, each scored by the scoring service (deleting and putting
back: ``deal_deletions``; a deal as JSON: ``deal_snapshots``)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from scorekeeper.models import Deal, DealChange, DealScore, DeletedDeal, Game, Player
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import EscopetteDeal, escopette_game, score_escopette_deal
from scorekeeper.scoring.paper import PaperDeal, score_paper_deal
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal, score_deal
from scorekeeper.services.common import (
    DealInputs,
    ServiceError,
    _check_open,
    evening_touch,
    lock_game,
)
from scorekeeper.services.costly import charge_old_evening
from scorekeeper.services.deal_keys import deal_of_key, save_facts_read
from scorekeeper.services.deal_snapshots import deal_snapshot
from scorekeeper.services.deal_totals import game_totals_keep
from scorekeeper.services.duplicate import case_check
from scorekeeper.services.evenings import next_dealer, present_players


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


def set_inputs(deal: Deal, inputs: DealInputs) -> None:
    """The deal's columns from the answers it is scored from (players by id)."""
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


def _store(
    game: Game, deal: Deal, inputs: DealInputs, present: Sequence[int], *, last: bool = False
) -> dict[str, Any]:
    """Score and save the deal; returns its inputs as a snapshot (for undo and history).

    ``last``: a new deal after the game's others, its score rows written with their running
    totals (each player's total so far, one query); else the caller keeps the totals."""
    scores = _score(game, inputs)
    set_inputs(deal, inputs)
    deal.updated_at = timezone.now()
    new = deal.pk is None
    everyone = list(dict.fromkeys([*present, *scores]))
    lines = DealScore.objects.filter(deal__game=game).order_by()  # by deal (index): not player
    so_far = dict(lines.values_list("player_id").annotate(Sum("score"))) if last else {}
    deal.save()
    if not new:
        deal.scores.all().delete()
    DealScore.objects.bulk_create(
        DealScore(
            deal=deal,
            player_id=player,
            seated=player in scores,
            score=scores.get(player, 0),
            total=so_far.get(player, 0) + scores.get(player, 0),
        )
        for player in everyone
    )
    return deal_snapshot(deal, present=everyone, seated=[p for p in everyone if p in scores])


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
    past_plan: bool = False,
    case_number: int | None = None,
    present: list[Player] | None = None,
) -> Deal:
    """Score and store the next deal of a game. The same idempotency key stores it once:
    the very same deal sent again returns the deal stored, marked ``already_stored``; the
    key with another deal raises DealKeyUsed (see services.deal_keys).

    ``expected_number`` is the number the form showed: when the game has moved on meanwhile
    (another phone saved that deal), DealNumberTaken is raised instead of storing a copy.

    The deal's ``game.evening`` is the evening as the call left it, read under its lock
    (its version raised by the save): the answer need not read it again.

    A tournament table's game stops at the round's planned deals and those the organiser
    allowed past them (ServiceError), unless ``past_plan`` (the organiser's own addition).
    A duplicate table's deal carries its case (``duplicate.case_check``).

    ``present``: the players at the table as the caller read them, after ``game.evening``:
    they stand while the evening's version under the lock is still that one (every change to
    the table raises it), else they are read again.
    """
    seen = game.evening.version if present is not None else None
    game = lock_game(game.pk, read=save_facts_read(idempotency_key))  # with its facts
    if idempotency_key:
        existing = deal_of_key(game, idempotency_key, inputs, dealer, expected_number)
        if existing is not None:
            existing.game = game  # the same game, its evening read under the lock
            existing.already_stored = True
            return existing
    _check_open(game.evening)
    charge_old_evening(game.evening, _person(created_by))
    if game.kind == Game.Kind.ESCOPETTE:
        _check_escopette_not_ended(game)
    if present is None or game.evening.version != seen:
        present = present_players(game)
    dealer = dealer or next_dealer(game, present)
    number = (game.last_number or 0) + 1
    if expected_number is not None and expected_number != number:
        taken = game.deals.filter(number=expected_number).select_related("dealer").first()
        raise DealNumberTaken(number=expected_number, deal=taken, next_number=number)
    if not past_plan:
        _check_planned(game.planned, number)
    deal = Deal(
        game=game,
        number=number,
        case_number=case_check(game, case_number) if game.planned is not None else None,
        dealer=dealer,
        created_by=_person(created_by),
        idempotency_key=idempotency_key or None,
    )
    # The evening's and the game's rows are locked above: a second save with the same key
    # waits for this one, then finds its deal; numbers are taken one at a time.
    after = _store(game, deal, inputs, [p.pk for p in present], last=True)
    _log(game, DealChange.Action.RECORDED, deal=deal, number=number, by=created_by, after=after)
    evening_touch(game.evening, only=game.kind, growing=True)  # scores added, none gone
    return deal


def _check_planned(planned: int | None, number: int) -> None:
    """A tournament table enters no deal past its planned ones (see ``deal_record``)."""
    if planned is not None and number > planned:
        raise ServiceError(
            ngettext(
                "This table has entered the %(count)s deal planned for the round: the "
                "organiser can allow one more.",
                "This table has entered the %(count)s deals planned for the round: the "
                "organiser can allow one more.",
                planned,
            )
            % {"count": planned}
        )


def _locked_deal(game: Game, deal: Deal) -> Deal:
    """The deal read again under the game's lock; DealGone if another phone deleted it."""
    fresh = Deal.objects.select_related("game").filter(pk=deal.pk, game=game).first()
    if fresh is None:
        raise DealGone(_("This deal was deleted meanwhile: nothing was changed."))
    return fresh


@transaction.atomic
def deal_update(
    *, deal: Deal, inputs: DealInputs, dealer: Player | None = None, changed_by: User | None = None
) -> Deal:
    game = lock_game(deal.game_id)
    _check_open(game.evening)
    charge_old_evening(game.evening, _person(changed_by))
    deal = _locked_deal(game, deal)
    before = deal_snapshot(deal)
    if dealer is not None:
        deal.dealer = dealer
    after = _store(game, deal, inputs, before["present"])
    if game.kind == Game.Kind.ESCOPETTE:
        _check_escopette_sequence(game)
    game_totals_keep(game)
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
    evening_touch(game.evening)
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
