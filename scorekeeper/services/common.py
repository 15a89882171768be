"""What every service module shares: the refusal they raise, and the open evening check."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scorekeeper.models import Evening
from scorekeeper.scoring.escopette import EscopetteDeal
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal

DealInputs = TarotDeal[int] | PassedDeal[int] | EscopetteDeal[int] | PaperDeal[int]


class ServiceError(Exception):
    """An action the rules of the app refuse; ``field`` names the input it concerns."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _check_open(evening: Evening) -> None:
    if evening.closed_at is not None:
        raise ServiceError(_("This evening is closed."))
