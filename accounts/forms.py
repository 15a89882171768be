"""The sign-in flow's forms: every input checked, with a message next to the field."""

from __future__ import annotations

import re
import unicodedata

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.addresses import UnusableAddress, canonical_email
from accounts.models import unusable_address_message
from accounts.services import CODE_DIGITS


def clean_email_address(value: str) -> str:
    """``value`` in its canonical form, or a ValidationError saying why (sign-in, invitations)."""
    try:
        return canonical_email(value)
    except UnusableAddress:
        raise forms.ValidationError(unusable_address_message(), code="unusable") from None


class EmailAddressField(forms.EmailField):
    """An e-mail field that folds compatibility forms (NFKC: fullwidth letters) before
    Django's validator sees the address, and gives its canonical form (or a clear error)."""

    def to_python(self, value: object) -> str:
        return unicodedata.normalize("NFKC", super().to_python(value))

    def clean(self, value: object) -> str:
        return clean_email_address(super().clean(value))


class EmailForm(forms.Form):
    email = EmailAddressField(
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
        error_messages={"required": _("Type a name."), "max_length": _("At most 100 characters.")},
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "autofocus": True}),
    )

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data["display_name"].split())
        if not name:
            raise forms.ValidationError(_("Type a name."), code="required")
        return name
