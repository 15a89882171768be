"""ScoringError in the reader's language (the words are ``error_messages``'); an error with
no known code keeps its English message."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext, pgettext_lazy

from scorekeeper.exchange.error_messages import MESSAGES
from scorekeeper.scoring.errors import ScoringError

FIELDS: dict[str, Promise] = {
    "absent": pgettext_lazy("import field", "away from the table"),
    "archive": pgettext_lazy("import field", "archive"),
    "bouts": pgettext_lazy("import field", "bouts"),
    "chelem": pgettext_lazy("import field", "chelem"),
    "club": pgettext_lazy("import field", "club"),
    "contract": pgettext_lazy("import field", "contract"),
    "created_at": pgettext_lazy("import field", "created"),
    "csv": pgettext_lazy("import field", "CSV"),
    "date": pgettext_lazy("import field", "date"),
    "deal": pgettext_lazy("import field", "deal"),
    "dealer": pgettext_lazy("import field", "dealer"),
    "deals": pgettext_lazy("import field", "deals"),
    "evening": pgettext_lazy("import field", "evening"),
    "evenings": pgettext_lazy("import field", "evenings"),
    "first_dealer": pgettext_lazy("import field", "first dealer"),
    "five_mode": pgettext_lazy("import field", "five players"),
    "format": pgettext_lazy("import field", "format"),
    "game": pgettext_lazy("import field", "game"),
    "games": pgettext_lazy("import field", "games"),
    "history": pgettext_lazy("import field", "history"),
    "invitations": pgettext_lazy("import field", "invitations"),
    "kind": pgettext_lazy("import field", "kind of game"),
    "members": pgettext_lazy("import field", "members"),
    "partner": pgettext_lazy("import field", "partner"),
    "passed": pgettext_lazy("import field", "passed"),
    "petit_au_bout": pgettext_lazy("import field", "petit au bout"),
    "place": pgettext_lazy("import field", "place"),
    "players": pgettext_lazy("import field", "players"),
    "poignees": pgettext_lazy("import field", "poignées"),
    "points": pgettext_lazy("import field", "points"),
    "scale": pgettext_lazy("import field", "points by place"),
    "scores": pgettext_lazy("import field", "scores"),
    "season": pgettext_lazy("import field", "season"),
    "seasons": pgettext_lazy("import field", "seasons"),
    "seated": pgettext_lazy("import field", "seated"),
    "seats": pgettext_lazy("import field", "seats"),
    "sheet": pgettext_lazy("import field", "sheet"),
    "sitting_out": pgettext_lazy("import field", "sitting out"),
    "stakes": pgettext_lazy("import field", "stakes"),
    "taker": pgettext_lazy("import field", "taker"),
    "target": pgettext_lazy("import field", "target"),
    "version": pgettext_lazy("import field", "version"),
    "miseres": pgettext_lazy("import field", "misères"),
    "rules": pgettext_lazy("import field", "house rules"),
}


def message_text(error: ScoringError) -> str:
    """The error's message alone (no field, no deal) in the active language, for a form."""
    template = MESSAGES.get(error.code)
    if template is None:
        return error.message
    try:
        return str(template) % error.params
    except (KeyError, TypeError, ValueError):
        return error.message


def refusal_message(error: Exception) -> str:
    """A service's refusal (already in the reader's language) or a scoring error, translated."""
    if isinstance(error, ScoringError):
        return message_text(error)
    return str(getattr(error, "message", error))


def error_text(error: ScoringError, *, evening: int | None = None) -> str:
    """``evening 2, deal 3: points: 95 is more than 91`` in the active language."""
    message = message_text(error)
    where = []
    if evening is not None:
        where.append(pgettext("import error", "evening %(number)s") % {"number": evening})
    row = getattr(error, "row", None)
    if row is not None:
        where.append(pgettext("import error", "row %(number)s") % {"number": row})
    if error.deal is not None:
        where.append(pgettext("import error", "deal %(number)s") % {"number": error.deal})
    field = FIELDS.get(error.field)
    label = str(field) if field is not None else error.field
    said = pgettext("import error", "%(field)s: %(message)s")
    text = said % {"field": label, "message": message}
    if not where:
        return text
    return said % {"field": ", ".join(where), "message": text}
