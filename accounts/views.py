"""Sign-in by e-mail: thin function views over ``accounts.services``."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import auth, messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import services
from accounts.client_ip import client_ip, through_untrusted_proxy
from accounts.forms import CodeForm, DisplayNameForm, EmailForm
from accounts.models import display_name_from_email

logger = logging.getLogger(__name__)

PENDING = "accounts.login_pending"  # session key: {"email": ..., "next": ...}
BROWSER_COOKIE = "login_browser"  # marks the browser that asked, for as long as a code lives
BROWSER_COOKIE_PATH = "/login/"
MAX_NEXT_LENGTH = 2000


def safe_next(request: HttpRequest, candidate: str | None) -> str:
    """``candidate`` when it is a path of this site ("/…"), else "" (``redirect()`` would take a
    bare word for a URL name)."""
    if not candidate or len(candidate) > MAX_NEXT_LENGTH or not candidate.startswith("/"):
        return ""
    if url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return ""


def _next_from(request: HttpRequest) -> str:
    return safe_next(request, request.POST.get("next") or request.GET.get("next"))


def _with_next(url: str, next_url: str) -> str:
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


_warned_untrusted_proxy = False


def _client_ip(request: HttpRequest) -> str | None:
    global _warned_untrusted_proxy
    trusted = getattr(settings, "TRUSTED_PROXIES", [])
    if not _warned_untrusted_proxy and through_untrusted_proxy(request.META, trusted):
        _warned_untrusted_proxy = True  # once per process: the journal, not a flood
        logger.warning(
            "Sign-in requests come through a proxy at %s that TRUSTED_PROXIES does not name: "
            "every visitor shares its sign-in limit per IP",
            request.META.get("REMOTE_ADDR"),
        )
    return client_ip(request.META, trusted)


def _signed_in(request: HttpRequest, signed_in: services.SignedIn, next_url: str) -> HttpResponse:
    auth.login(request, signed_in.user)  # rotates the session key
    request.session.pop(PENDING, None)
    if signed_in.created:
        target = _with_next(reverse("accounts:welcome"), next_url)
    else:
        messages.success(request, _("You are signed in as %(name)s.") % {"name": signed_in.user})
        target = next_url or resolve_url(settings.LOGIN_REDIRECT_URL)
    response = redirect(target)
    response.delete_cookie(
        BROWSER_COOKIE, path=BROWSER_COOKIE_PATH, samesite=settings.SESSION_COOKIE_SAMESITE
    )
    return response


def _holds_pending_code(request: HttpRequest, email: str, browser_id: str) -> bool:
    pending = request.session.get(PENDING)
    return (
        isinstance(pending, dict)
        and pending.get("email") == email
        and services.login_code_pending(email=email, browser_id=browser_id)
    )


@require_http_methods(["GET", "HEAD", "POST"])
def login(request: HttpRequest) -> HttpResponse:
    next_url = _next_from(request)
    status = 200
    if request.method == "POST":
        form = EmailForm(request.POST)
        if form.is_valid():
            browser_id = request.COOKIES.get(BROWSER_COOKIE, "")
            try:
                requested = services.login_request(
                    email=form.cleaned_data["email"],
                    ip=_client_ip(request),
                    language=get_language(),
                    base_url=request.build_absolute_uri("/"),
                    next_url=next_url,
                    browser_id=browser_id,
                )
            except services.RateLimited as refusal:
                if _holds_pending_code(request, form.cleaned_data["email"], browser_id):
                    # Whoever filled the address's limit, this browser's code still works.
                    messages.info(request, _("The code sent earlier still works: type it here."))
                    return redirect("accounts:login_code")
                form.add_error(None, refusal.message)
                if refusal.per_address and services.link_pending(email=form.cleaned_data["email"]):
                    form.add_error(
                        None,
                        _(
                            "A sign-in link mailed to this address in the last hour still "
                            "works: open it from your mailbox."
                        ),
                    )
                status = refusal.status
            except services.LoginRefused as refusal:
                form.add_error(None, refusal.message)
                status = refusal.status
            else:
                request.session[PENDING] = {"email": requested.email, "next": next_url}
                response = redirect("accounts:login_code")
                response.set_cookie(
                    BROWSER_COOKIE,
                    requested.browser_id,
                    max_age=int(services.CODE_LIFETIME.total_seconds()),
                    path=BROWSER_COOKIE_PATH,
                    secure=settings.SESSION_COOKIE_SECURE,
                    httponly=True,
                    samesite=settings.SESSION_COOKIE_SAMESITE,
                )
                return response
        else:
            status = 400
    else:
        form = EmailForm()
    return render(request, "accounts/login.html", {"form": form, "next": next_url}, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def login_code(request: HttpRequest) -> HttpResponse:
    pending: dict[str, Any] | None = request.session.get(PENDING)
    if not isinstance(pending, dict) or not pending.get("email"):
        return redirect("accounts:login")
    next_url = safe_next(request, pending.get("next"))
    status = 200
    if request.method == "POST":
        form = CodeForm(request.POST)
        if form.is_valid():
            try:
                signed_in = services.login_with_code(
                    email=pending["email"],
                    code=form.cleaned_data["code"],
                    browser_id=request.COOKIES.get(BROWSER_COOKIE, ""),
                )
            except services.LoginRefused as refusal:
                form.add_error("code", refusal.message)
                status = refusal.status
            else:
                return _signed_in(request, signed_in, next_url)
        else:
            status = 400
    else:
        form = CodeForm()
    context = {
        "form": form,
        "email": pending["email"],
        "next": next_url,
        "minutes": int(services.CODE_LIFETIME.total_seconds() // 60),
    }
    return render(request, "accounts/login_code.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def login_link(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a Continue button (mail scanners open links); POST signs in.

    The browser that asked for the mail, known by its cookie, skips the button.
    """
    next_url = _next_from(request)
    browser_id = request.COOKIES.get(BROWSER_COOKIE, "")
    direct = request.method == "GET" and services.login_link_from_this_browser(
        token=token, browser_id=browser_id
    )
    try:
        if request.method == "POST" or direct:
            return _signed_in(request, services.login_with_link(token=token), next_url)
        email = services.login_link_email(token=token)
        if email is None:
            raise services.link_no_longer_works()
    except services.LoginRefused as refusal:
        context = {"message": refusal.message, "next": next_url}
        return render(request, "accounts/login_link_invalid.html", context, status=410)
    return render(request, "accounts/login_link.html", {"email": email, "next": next_url})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def welcome(request: HttpRequest) -> HttpResponse:
    next_url = _next_from(request)
    status = 200
    if request.method == "POST":
        form = DisplayNameForm(request.POST)
        if form.is_valid():
            services.display_name_set(
                user=request.user, display_name=form.cleaned_data["display_name"]
            )
            return redirect(next_url or resolve_url(settings.LOGIN_REDIRECT_URL))
        status = 400
    else:
        name = request.user.display_name or display_name_from_email(request.user.email)
        form = DisplayNameForm(initial={"display_name": name})
    return render(request, "accounts/welcome.html", {"form": form, "next": next_url}, status=status)


@require_http_methods(["POST"])
def logout(request: HttpRequest) -> HttpResponse:
    auth.logout(request)
    messages.success(request, _("You are signed out."))
    return redirect(settings.LOGOUT_REDIRECT_URL)
