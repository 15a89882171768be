"""Forms of the season pages: a new season, a deal sheet to import."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.screens.input_fields import PlaceField, RuleDateField, SeasonNameField

MAX_IMPORT_BYTES = 2 * 1024 * 1024  # with IMPORT_MAX_DEALS (exports): the cap of one import


class SeasonForm(forms.Form):
    prefix = "season"

    name = SeasonNameField(label=_("Name"))
    start = RuleDateField(label=_("First day"))
    end = RuleDateField(label=_("Last day"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end and end < start:
            self.add_error("end", _("The last day cannot come before the first day."))
        return data


class ImportForm(forms.Form):
    prefix = "import"

    file = forms.FileField(
        label=_("A deal sheet file"),
        required=False,
        help_text=_(
            "A .json file (a deal sheet, or a season exported from here) or a .csv file "
            "exported from here or filled in from the template."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json,.csv,text/csv"}),
    )
    text = forms.CharField(
        label=_("Or paste it here"),
        required=False,
        widget=forms.Textarea(
            attrs={"rows": 10, "spellcheck": "false", "autocomplete": "off", "class": "import-text"}
        ),
    )
    date = RuleDateField(
        label=_("Date of the evening"),
        required=False,
        help_text=_("A season file keeps the dates it holds."),
    )
    place = PlaceField(label=_("Place"))
    skip_existing = forms.BooleanField(
        label=_("Skip what is already here"),
        required=False,
        help_text=_("Games imported before are left out instead of stopping the import."),
    )
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("date", timezone.localdate())

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_IMPORT_BYTES:
                self.add_error("file", _("This file is too large (2 MB at most)."))
                return data
            data["content"] = upload.read()
        elif (data.get("text") or "").strip():
            data["content"] = data["text"]
        else:
            self.add_error(None, _("Choose a file or paste a deal sheet."))
        return data
