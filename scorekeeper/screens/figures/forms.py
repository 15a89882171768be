"""The range of the club figures pages: a season of the club, or all time (``?season=``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.models import Season

ALL_TIME = "all"


class ScopeForm(forms.Form):
    """``?season=<id>`` or ``?season=all``; without it, the given default season."""

    season = forms.ChoiceField(label=_("Season"), required=False)

    def __init__(self, data: Any, *, seasons: Sequence[Season], default: Season | None) -> None:
        super().__init__(data)
        self.seasons = {str(season.pk): season for season in seasons}
        self.default = default
        choices = [(key, season.name) for key, season in self.seasons.items()]
        self.fields["season"].choices = [*choices, (ALL_TIME, _("All time"))]

    def clean_season(self) -> Season | None:
        wanted = self.cleaned_data.get("season") or ""
        if not wanted:
            return self.default
        if wanted == ALL_TIME:
            return None
        return self.seasons[wanted]
