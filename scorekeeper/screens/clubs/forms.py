"""Forms of the club pages: they parse input only; the services decide and write."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.forms import EmailAddressField
from accounts.models import User
from scorekeeper.exchange.error_text import error_text
from scorekeeper.models import Club
from scorekeeper.scoring.club_figures import check_scale
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.screens.input_fields import ClubNameField, LicenceField, NameField


class ClubNameForm(forms.Form):
    name = ClubNameField(
        label=_("Name of the club"), widget=forms.TextInput(attrs={"autocomplete": "off"})
    )


class EveningPointsForm(forms.Form):
    """The club's evening ranking points: on or off, and the points of each place."""

    enabled = forms.BooleanField(label=_("Give evening ranking points"), required=False)
    scale = forms.CharField(
        label=_("Points by place, 1st first"),
        max_length=200,
        help_text=_("Whole numbers separated by commas, never rising: 10, 6, 4, 2, 1"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "inputmode": "numeric"}),
    )

    def clean_scale(self) -> tuple[int, ...]:
        text = self.cleaned_data.get("scale", "")
        parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
        if not all(part.isascii() and part.isdigit() for part in parts):
            raise forms.ValidationError(_("Give whole numbers separated by commas."))
        try:
            return check_scale(tuple(int(part) for part in parts))
        except ScoringError as error:
            raise forms.ValidationError(error_text(error)) from error


class InvitationForm(forms.Form):
    email = EmailAddressField(
        label=_("E-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "off", "inputmode": "email"}),
    )
    language = forms.ChoiceField(
        label=_("Language of the e-mail"), choices=settings.LANGUAGES, required=False
    )


class PlayerAddForm(forms.Form):
    name = NameField(
        label=_("Name of the player"), widget=forms.TextInput(attrs={"autocomplete": "off"})
    )


class PlayerEditForm(forms.Form):
    name = NameField(label=_("Name"), widget=forms.TextInput(attrs={"autocomplete": "off"}))
    licence = LicenceField(
        label=_("Federation licence number"),
        help_text=_("Optional: shown in tournament results and exports."),
    )
    user = forms.ModelChoiceField(
        label=_("Member's account"),
        queryset=User.objects.none(),
        required=False,
        empty_label=_("No account"),
        help_text=_("Link this player to a member who signs in, if the player is one."),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["user"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = User.objects.filter(memberships__club=club).order_by(
            "display_name", "email"
        )
