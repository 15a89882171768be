"""Template helpers for the house rules: the short line of the rules in force, and the
misères of a deal on the score sheet."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.rules import FFT_RULES, HouseRules, rules_from_data
from scorekeeper.screens.rules_text import rules_line as _rules_line

register = template.Library()


def _as_rules(value: object) -> HouseRules:
    if isinstance(value, HouseRules):
        return value
    try:
        return rules_from_data(value if value is not None else {})
    except ScoringError:
        return FFT_RULES


@register.filter
def rules_line(value: object) -> str:
    """ "FFT rules" or "House rules: …" for a HouseRules or its stored data."""
    return _rules_line(_as_rules(value))


@register.simple_tag
def misere_marks(deal: Any, players: Iterable[Any]) -> SafeString:
    """The players who announced a misère in this deal, as a mark of the sheet."""
    if not getattr(deal, "miseres", None):
        return mark_safe("")
    names = {player.pk: player.name for player in players}
    announced = ", ".join(names.get(pk, "?") for pk in deal.miseres)
    text = gettext("Misère: %(names)s") % {"names": announced}
    return mark_safe(  # the text is escaped
        f'<span class="marks"><span class="mark misere-mark">{escape(text)}</span></span>'
    )
