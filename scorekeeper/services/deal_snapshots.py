"""A deal's inputs as JSON (its history's before and after, a deleted deal kept for Undo)
and back to the inputs the rules take."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from scorekeeper.models import Deal
from scorekeeper.scoring.escopette import EscopetteDeal
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal
from scorekeeper.services.common import DealInputs


def deal_snapshot(
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


def snapshot_inputs(snapshot: dict[str, Any]) -> DealInputs:
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
