"""What the deal form adds for the evening's house rules: the misère field (only when the
rules score misères) and the line saying which rules the deal is scored by."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.models import Game
from scorekeeper.scoring.rules import FFT_RULES, HouseRules
from scorekeeper.screens.rules_text import rules_line

MISERES = "miseres"


class HouseRulesFields:
    """Mixin of the tarot deal form: call ``add_house_rules`` at the end of ``__init__``."""

    fields: dict[str, forms.Field]
    present: list[Any]

    def add_house_rules(self, game: Game) -> None:
        self.rules: HouseRules = (
            game.evening.house_rules if game.kind == Game.Kind.TAROT else FFT_RULES
        )
        if self.rules.misere:
            self.fields[MISERES] = forms.TypedMultipleChoiceField(
                label=_("Misère announced by"),
                help_text=_(
                    "Each other player at the table pays %(points)s to each of them, "
                    "whoever wins the deal."
                )
                % {"points": self.rules.misere},
                choices=[(player.pk, player.name) for player in self.present],
                coerce=int,
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )

    @property
    def misere_field(self) -> forms.BoundField | None:
        """The misère field, or None when the evening's rules score no misère."""
        return self[MISERES] if MISERES in self.fields else None  # type: ignore[index]

    def announced_miseres(self, data: dict[str, Any]) -> tuple[int, ...]:
        """The players who announced a misère, in seat order (none when the rules have none)."""
        chosen = set(data.get(MISERES) or ()) if MISERES in self.fields else set()
        return tuple(pk for pk in (p.pk for p in self.present) if pk in chosen)

    @property
    def rules_line(self) -> str:
        """ "House rules: …" when the evening is not played by the FFT rules, else ""."""
        return rules_line(self.rules) if self.rules != FFT_RULES else ""
