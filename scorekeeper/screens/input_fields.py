"""Form fields for names, places and dates, read by ``scoring.inputs``, the rules every way
in follows (forms, admin, imports, archives): the value and the refusal are the rule's; and a
service's refusal put on its form (``refuse``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext as _

from scorekeeper.exchange.error_text import message_text
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.inputs import (
    CLUB_NAME_MAX,
    FIRST_YEAR,
    LAST_YEAR,
    LICENCE_MAX,
    NAME_MAX,
    PLACE_MAX,
    SEASON_NAME_MAX,
    TOURNAMENT_NAME_MAX,
    clean_club_name,
    clean_date,
    clean_licence,
    clean_name,
    clean_place,
    clean_season_name,
    clean_tournament_name,
)
from scorekeeper.services import ServiceError


def refuse(form: forms.Form, error: ServiceError) -> None:
    """Put a service's refusal next to the field it concerns (or above the form)."""
    form.add_error(error.field if error.field in form.fields else None, error.message)


def _by_rule(rule: Callable[..., Any], value: object) -> Any:
    try:
        return rule(value)
    except ScoringError as error:
        raise forms.ValidationError(message_text(error), code=error.code) from None


class RuleTextField(forms.CharField):
    """Text through ``rule`` (a ``scoring.inputs`` function) at most ``limit`` long."""

    rule: ClassVar[Callable[..., str]]
    limit: ClassVar[int]

    def __init__(self, **kwargs: Any) -> None:
        kwargs["max_length"] = min(kwargs.get("max_length") or self.limit, self.limit)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        text = super().to_python(value)
        if text in self.empty_values:
            return text
        return _by_rule(type(self).rule, text)


class NameField(RuleTextField):
    """A player's name (a guest's too)."""

    rule = staticmethod(clean_name)
    limit = NAME_MAX


class LicenceField(RuleTextField):
    """A federation licence number, optional: letters and digits."""

    rule = staticmethod(clean_licence)
    limit = LICENCE_MAX * 2  # typed with spaces or dashes, stored without

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.widget.attrs.update(autocomplete="off", autocapitalize="characters")


class NameListField(forms.CharField):
    """Names one a line (a pasted list), each by the rules of a name; blank lines skipped,
    the same name twice refused. Gives the list of names."""

    widget = forms.Textarea

    def __init__(self, *, most: int, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", most * (NAME_MAX + 2))
        super().__init__(**kwargs)
        self.most = most
        self.widget.attrs.update(rows=4, autocapitalize="words", spellcheck="false")

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]
        text = super().to_python(value)
        names: list[str] = []
        for line in (text or "").splitlines():
            if line.strip():
                name = _by_rule(clean_name, line)
                if name.casefold() in (n.casefold() for n in names):
                    raise forms.ValidationError(
                        _("%(name)s is twice in the list.") % {"name": name}, code="twice"
                    )
                names.append(name)
        if len(names) > self.most:
            raise forms.ValidationError(
                _("At most %(count)s names at once.") % {"count": self.most}, code="too_many"
            )
        return names


class PlaceField(RuleTextField):
    rule = staticmethod(clean_place)
    limit = PLACE_MAX

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)


class SeasonNameField(RuleTextField):
    rule = staticmethod(clean_season_name)
    limit = SEASON_NAME_MAX


class ClubNameField(RuleTextField):
    rule = staticmethod(clean_club_name)
    limit = CLUB_NAME_MAX


class TournamentNameField(RuleTextField):
    """A tournament's name: its tables' evenings are "name, round n, table t"."""

    rule = staticmethod(clean_tournament_name)
    limit = TOURNAMENT_NAME_MAX


class DateInput(forms.DateInput):
    """The browser's date picker, kept within the years the rules take."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        limits = {"min": f"{FIRST_YEAR}-01-01", "max": f"{LAST_YEAR}-12-31"}
        super().__init__({**limits, **(attrs or {})}, format="%Y-%m-%d")


class RuleDateField(forms.DateField):
    """A date between the years 1900 and 2999 (``scoring.inputs.clean_date``)."""

    widget = DateInput

    def to_python(self, value: Any) -> dt.date | None:
        date = super().to_python(value)
        return None if date is None else _by_rule(clean_date, date)
