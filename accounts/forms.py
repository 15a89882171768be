"""The sign-in flow's forms: every input checked, with a message next to the field."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import normalize_email_address
from accounts.services import CODE_DIGITS


class EmailForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        error_messages={
            "required": _("Type your e-mail address."),
            "invalid": _("This does not look like an e-mail address, e.g. ana@example.com."),
            "max_length": _("This address is too long."),
        },
        widget=forms.EmailInput(
            attrs={
                "autocomplete": "email",
                "inputmode": "email",
                "autocapitalize": "none",
                "spellcheck": "false",
                "autofocus": True,
                "placeholder": _("you@example.com"),
            }
        ),
    )

    def clean_email(self) -> str:
        return normalize_email_address(self.cleaned_data["email"])


class CodeForm(forms.Form):
    code = forms.CharField(
        label=_("Code from the e-mail"),
        max_length=20,
        error_messages={
            "required": _("Type the 6-digit code from the e-mail."),
            "max_length": _("The code has 6 digits."),
        },
        widget=forms.TextInput(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "one-time-code",
                "pattern": "[0-9 ]*",
                "autofocus": True,
                "class": "code-input",
            }
        ),
    )

    def clean_code(self) -> str:
        code = re.sub(r"[\s-]", "", self.cleaned_data["code"])
        if not re.fullmatch(rf"[0-9]{{{CODE_DIGITS}}}", code):
            raise forms.ValidationError(_("The code has 6 digits, e.g. 123456."), code="invalid")
        return code


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(
        label=_("Your name, as the other players see it"),
        max_length=100,
        error_messages={
            "required": _("Type a name."),
            "max_length": _("At most 100 characters."),
        },
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "autofocus": True}),
    )

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data["display_name"].split())
        if not name:
            raise forms.ValidationError(_("Type a name."), code="required")
        return name
