from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User, normalize_email_address


class UserAdminForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("email", "display_name")

    def clean_email(self) -> str:
        email = normalize_email_address(self.cleaned_data["email"])
        taken = User.objects.filter(email__iexact=email).exclude(pk=self.instance.pk)
        if taken.exists():
            raise forms.ValidationError(_("An account with this address already exists."))
        return email

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        if not user.pk:
            user.set_unusable_password()
        if commit:
            user.save()
        return user


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    form = UserAdminForm
    add_form = UserAdminForm
    ordering = ("email",)
    list_display = ("email", "display_name", "is_staff", "is_active", "date_joined")
    search_fields = ("email", "display_name")
    fieldsets = (
        (None, {"fields": ("email", "display_name")}),
        (
            _("Permissions"),
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        (_("Dates"), {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "display_name")}),)
    readonly_fields = ("last_login", "date_joined")
