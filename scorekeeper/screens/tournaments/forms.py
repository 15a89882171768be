"""Forms of the tournament pages: a new tournament, a player registered."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.models import Club, Player
from scorekeeper.screens.input_fields import (
    NameField,
    PlaceField,
    RuleDateField,
    TournamentNameField,
)
from scorekeeper.services.tournaments import MAX_DEALS_PER_ROUND, MAX_ROUNDS


class TournamentForm(forms.Form):
    prefix = "tournament"

    name = TournamentNameField(label=_("Name"))
    date = RuleDateField(label=_("Date"))
    place = PlaceField(label=_("Place"))
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS, initial=4)
    deals_per_round = forms.IntegerField(
        label=_("Deals per round"), min_value=1, max_value=MAX_DEALS_PER_ROUND, initial=8
    )
    allow_three = forms.BooleanField(
        label=_("Allow tables of 3 when 4s and 5s cannot seat everyone"), required=False
    )


class RegisterForm(forms.Form):
    """A club player from the list, or a guest by name."""

    prefix = "register"

    player = forms.ModelChoiceField(
        label=_("A player of the club"), queryset=Player.objects.none(), required=False
    )
    guest_name = NameField(label=_("Or a guest's name"), required=False)

    def __init__(self, *args: Any, club: Club, exclude: set[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = club.players.filter(retired=False).exclude(pk__in=exclude)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("player") and not (data.get("guest_name") or "").strip():
            self.add_error("player", _("Choose a player or give a guest's name."))
        elif data.get("player") and (data.get("guest_name") or "").strip():
            self.add_error("guest_name", _("Choose a player or give a guest's name, not both."))
        return data
