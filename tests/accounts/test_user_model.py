from __future__ import annotations

import pytest
from django.db import IntegrityError

from accounts.models import LoginCode, User, display_name_from_email


@pytest.mark.django_db
def test_the_email_address_is_stored_lower_case() -> None:
    user = User.objects.create_user("  Ana.Martin@Example.COM ")
    assert user.email == "ana.martin@example.com"
    assert not user.has_usable_password()


@pytest.mark.django_db
def test_two_accounts_cannot_share_an_address_whatever_its_case() -> None:
    User.objects.create_user("ana@example.com")
    with pytest.raises(IntegrityError):
        User.objects.create(email="ANA@example.com")


@pytest.mark.django_db
def test_the_natural_key_lookup_ignores_case() -> None:
    user = User.objects.create_user("ben@example.com")
    assert User.objects.get_by_natural_key("BEN@Example.com") == user


def test_a_display_name_is_guessed_from_the_address() -> None:
    assert display_name_from_email("chloe.dupont@example.com") == "Chloe Dupont"


@pytest.mark.django_db
def test_the_admin_lists_and_edits_users(admin_client) -> None:
    User.objects.create_user("dan@example.com", display_name="Dan")
    listing = admin_client.get("/admin/accounts/user/")
    assert listing.status_code == 200
    assert "dan@example.com" in listing.text
    created = admin_client.post(
        "/admin/accounts/user/add/", {"email": "New@Example.com", "display_name": "New"}
    )
    assert created.status_code == 302
    assert User.objects.filter(email="new@example.com").exists()


@pytest.mark.django_db
def test_the_admin_shows_a_sign_in_code_read_only_and_never_its_hashes(admin_client) -> None:
    admin_client.post("/login/", {"email": "dan@example.com"})
    code = LoginCode.objects.get(email="dan@example.com")
    page = admin_client.get(f"/admin/accounts/logincode/{code.pk}/change/")
    assert page.status_code == 200
    assert "dan@example.com" in page.text
    assert 'name="email"' not in page.text  # shown, not a field to fill
    assert code.code_hash not in page.text
    assert code.link_token_hash not in page.text
    refused = admin_client.post(f"/admin/accounts/logincode/{code.pk}/change/", {"attempts": 0})
    assert refused.status_code == 403
