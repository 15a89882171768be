"""Forms of the tournament pages: a new tournament, a player registered."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.models import Club, Player, Tournament
from scorekeeper.screens.input_fields import (
    NameListField,
    PlaceField,
    RuleDateField,
    TournamentNameField,
)
from scorekeeper.server.parsing import parse_id
from scorekeeper.services.tournaments import MAX_DEALS_PER_ROUND, MAX_GUESTS_AT_ONCE, MAX_ROUNDS


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
    # Not sent (an older page, a script): free deals, ranked by match points if duplicate.
    kind = forms.TypedChoiceField(
        label=_("Deals"),
        choices=[
            (Tournament.Kind.FREE, _("Free deals: each table deals its own cards")),
            (
                Tournament.Kind.DUPLICATE,
                _("Duplicate: each deal is dealt once, in a case, and played at several tables"),
            ),
        ],
        initial=Tournament.Kind.FREE,
        required=False,
        empty_value=Tournament.Kind.FREE,
        widget=forms.RadioSelect,
        help_text=_("Duplicate: 12 to 60 players, at tables of 4."),
    )
    method = forms.TypedChoiceField(
        label=_("Duplicate results"),
        choices=[
            (
                Tournament.Method.MATCH_POINTS,
                _("Match points: 2 for each score beaten, 1 for each tie"),
            ),
            (Tournament.Method.MEAN, _("Score against the mean of those who held the same cards")),
        ],
        initial=Tournament.Method.MATCH_POINTS,
        required=False,
        empty_value=Tournament.Method.MATCH_POINTS,
        widget=forms.RadioSelect,
    )


class PlayerPicks(forms.ModelMultipleChoiceField):
    """Players ticked in a list: anything but their ids is refused before the database."""

    def _check_values(self, value: Any) -> Any:
        for pk in value:
            if parse_id(str(pk)) is None:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super()._check_values(value)


class RegisterForm(forms.Form):
    """Players of the club ticked in a list, and guests typed or pasted one a line."""

    prefix = "register"

    player = PlayerPicks(
        label=_("Players of the club"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    guest_name = NameListField(
        label=_("Guests, one a line"),
        required=False,
        most=MAX_GUESTS_AT_ONCE,
        help_text=_("Type or paste their names; each becomes a player of the club."),
    )

    def __init__(self, *args: Any, club: Club, exclude: set[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, PlayerPicks)
        field.queryset = club.players.filter(retired=False).exclude(pk__in=exclude)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if (
            "player" in data
            and "guest_name" in data
            and not data["player"]
            and not data["guest_name"]
        ):
            self.add_error(None, _("Tick players of the club or give guests' names."))
        return data
