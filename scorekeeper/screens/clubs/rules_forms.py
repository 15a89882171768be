"""The form of a club's house rules: one choice per rule, read into a ``HouseRules``."""

from __future__ import annotations

from typing import Any

from django import forms

from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.rules import RULE_KEYS, HouseRules
from scorekeeper.screens.rules_text import RULE_CHOICES, RULE_EXPLAINED, RULE_NAMES


def _key(value: object) -> str:
    """A choice's value as a form sends it: "fft", "true", "10"."""
    return str(value).lower() if isinstance(value, bool) else str(value)


class HouseRulesForm(forms.Form):
    """Five choices, the FFT's by default; ``rules`` holds the chosen rules once valid."""

    prefix = "rules"

    def __init__(self, *args: Any, current: HouseRules, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules: HouseRules | None = None
        self._values: dict[str, dict[str, object]] = {}
        for rule in RULE_KEYS:
            options = RULE_CHOICES[rule]
            self._values[rule] = {_key(value): value for value, _label in options}
            self.fields[rule] = forms.ChoiceField(
                label=RULE_NAMES[rule],
                help_text=RULE_EXPLAINED[rule],
                choices=[(_key(value), label) for value, label in options],
                initial=_key(getattr(current, rule)),
                widget=forms.RadioSelect,
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        try:
            self.rules = HouseRules(**{rule: self._values[rule][data[rule]] for rule in RULE_KEYS})
        except (KeyError, ScoringError):  # the choices above are the rules' own: not reached
            self.add_error(None, forms.ValidationError("not a set of house rules"))
        return data
