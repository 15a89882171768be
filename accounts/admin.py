from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _

from accounts.forms import clean_email_address
from accounts.models import LoginCode, LoginRequest, User


class UserAdminForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("email", "display_name")

    def clean_email(self) -> str:
        email = clean_email_address(self.cleaned_data["email"])
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


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never added or changed here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(LoginCode)
class LoginCodeAdmin(ReadOnlyAdmin):
    """Read-only: codes and link tokens are stored only as hashes."""

    list_display = ("email", "created_at", "expires_at", "attempts", "used_at", "voided_at")
    list_filter = ("created_at",)
    search_fields = ("email",)
    fields = list_display


@admin.register(LoginRequest)
class LoginRequestAdmin(ReadOnlyAdmin):
    """Read-only: the records behind the hourly sign-in limits."""

    list_display = ("email", "ip", "created_at", "mail_sent")
    list_filter = ("mail_sent", "created_at")
    search_fields = ("email", "ip")
    fields = list_display


_admin_password_login = admin.site.login


def admin_login(request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
    """Staff sign in by e-mail like everyone: the admin's password form is never shown."""
    if not request.user.is_authenticated:
        target = request.GET.get("next", "")
        if not url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            target = ""
        return redirect_to_login(target or reverse(f"{admin.site.name}:index"))
    if not (request.user.is_active and request.user.is_staff):
        raise PermissionDenied
    return _admin_password_login(request, extra_context)


admin.site.login = admin_login
