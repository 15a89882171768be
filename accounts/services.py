"""Every database write of the sign-in flow: keyword-only functions, each in a transaction.

Sign-in is by e-mail alone: ``login_request`` checks the hourly limits (``accounts.limits``)
and mails a code and a link (both stored hashed); ``login_with_code`` and ``login_with_link``
spend them, creating the account at its first sign-in.

Nobody can lock someone else out: a request voids only the asking browser's earlier codes,
a refused request voids nothing, wrong codes void only that code, and a link works anywhere
for ``LINK_LIFETIME`` whoever fills the address's limit. A sign-in stops every other pending
code and link of the address.
"""

from __future__ import annotations

import datetime as dt
import hmac
import logging
import secrets
from dataclasses import dataclass
from urllib.parse import urlencode

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.addresses import canonical_email
from accounts.limits import (
    LIMIT_WINDOW,
    MAILS_PER_ADDRESS,
    REQUESTS_PER_IP,
    LoginRefused,
    MailNotSent,
    RateLimited,
    count_one_at_a_time,
    minutes_until_free,
    too_many,
)
from accounts.login_mail import login_mail_send
from accounts.models import (
    CODE_LIFETIME,
    LINK_LIFETIME,
    LoginCode,
    LoginRequest,
    User,
    display_name_from_email,
)

logger = logging.getLogger(__name__)

CODE_DIGITS = 6
MAX_WRONG_CODES = 5
KEEP_RECORDS = dt.timedelta(days=1)


@dataclass(frozen=True)
class LoginRequested:
    email: str
    browser_id: str  # the value of the short-lived cookie that marks the asking browser


@dataclass(frozen=True)
class SignedIn:
    user: User
    created: bool  # the account was created by this sign-in


# --- Secrets --------------------------------------------------------------------------------


def _digest(purpose: str, value: str) -> str:
    return salted_hmac(f"accounts.login.{purpose}", value, algorithm="sha256").hexdigest()


def _code_digest(row: LoginCode, code: str) -> str:
    # The row's random link-token hash salts the code, so equal codes hash differently.
    return _digest("code", f"{row.email}:{row.link_token_hash}:{code}")


def _browser_digest(browser_id: str) -> str:
    return _digest("browser", browser_id)


def new_code() -> str:
    return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"


def _usable(email: str, now: dt.datetime):
    """The address's codes that still work (each in its own browser)."""
    return LoginCode.objects.filter(
        email=email, used_at=None, voided_at=None, code_voided_at=None, expires_at__gt=now
    ).order_by("-pk")


def link_pending(*, email: str) -> bool:
    """Whether a link mailed to ``email`` still signs in (mailed in the last hour, unused)."""
    try:
        email = canonical_email(email)
    except ValueError:
        return False
    return LoginCode.objects.filter(
        email=email, used_at=None, voided_at=None, created_at__gt=timezone.now() - LINK_LIFETIME
    ).exists()


def _void_others(row: LoginCode, now: dt.datetime) -> None:
    """Once ``row`` signed in, the address's other pending codes and links stop working."""
    LoginCode.objects.filter(email=row.email, used_at=None, voided_at=None).exclude(
        pk=row.pk
    ).update(voided_at=now)


def is_browser_id(value: str) -> bool:
    return bool(value) and len(value) <= 64 and value.replace("-", "").replace("_", "").isalnum()


# --- Asking for a mail ------------------------------------------------------------------------


def _refusal_by_limits(email: str, ip: str | None, now: dt.datetime) -> RateLimited | None:
    """Count the request (raising when the IP is over its limit); the address's refusal."""
    since = now - LIMIT_WINDOW
    LoginRequest.objects.filter(created_at__lt=now - KEEP_RECORDS).delete()
    LoginCode.objects.filter(created_at__lt=now - LINK_LIFETIME - KEEP_RECORDS).delete()
    from_ip = LoginRequest.objects.filter(ip=ip, created_at__gte=since)
    if from_ip.count() >= REQUESTS_PER_IP:
        oldest = from_ip.order_by("created_at").values_list("created_at", flat=True)[0]
        raise too_many(minutes_until_free(oldest, now), per_address=False)
    mails = LoginRequest.objects.filter(email=email, mail_sent=True, created_at__gte=since)
    if mails.count() < MAILS_PER_ADDRESS:
        return None
    oldest = mails.order_by("created_at").values_list("created_at", flat=True)[0]
    return too_many(minutes_until_free(oldest, now), per_address=True)


def _new_code(email: str, browser_id: str, now: dt.datetime) -> tuple[LoginCode, str, str]:
    """A fresh code and link for the asking browser (its earlier codes stop; their links
    still work): the stored row, the code and the link token."""
    LoginCode.objects.filter(
        email=email, used_at=None, code_voided_at=None, browser_hash=_browser_digest(browser_id)
    ).update(code_voided_at=now)
    code, token = new_code(), secrets.token_urlsafe(32)
    row = LoginCode(
        email=email,
        link_token_hash=_digest("link", token),
        browser_hash=_browser_digest(browser_id),
        created_at=now,
        expires_at=now + CODE_LIFETIME,
    )
    row.code_hash = _code_digest(row, code)
    row.save()
    return row, code, token


def login_request(
    *,
    email: str,
    ip: str | None,
    language: str,
    base_url: str,
    next_url: str = "",
    browser_id: str = "",
) -> LoginRequested:
    """Mail a new code and link to ``email``, the same answer whether it has an account or not
    (``base_url``: the site; ``next_url``: checked; ``browser_id``: the asking browser's cookie).
    Raises ``RateLimited`` (nothing sent, nothing voided) or ``MailNotSent``.
    """
    email = canonical_email(email)
    now = timezone.now()
    browser_id = browser_id if is_browser_id(browser_id) else secrets.token_urlsafe(32)
    with transaction.atomic():
        count_one_at_a_time(f"ip:{ip}", f"email:{email}")
        refusal = _refusal_by_limits(email, ip, now)
        # The request counts towards the IP limit even when the address limit refuses it.
        record = LoginRequest.objects.create(
            email=email, ip=ip, created_at=now, mail_sent=refusal is None
        )
        if refusal is None:
            row, code, token = _new_code(email, browser_id, now)
    if refusal is not None:
        raise refusal
    link = base_url.rstrip("/") + reverse("accounts:login_link", kwargs={"token": token})
    if next_url:
        link += "?" + urlencode({"next": next_url})
    try:
        login_mail_send(email=email, code=code, link=link, language=language)
    except Exception:  # SMTP errors come as several types (smtplib, socket, ssl)
        logger.exception("The sign-in mail to %s could not be sent", email)
        with transaction.atomic():
            LoginCode.objects.filter(pk=row.pk).update(voided_at=timezone.now())
            LoginRequest.objects.filter(pk=record.pk).update(mail_sent=False)
        raise MailNotSent(
            _("The e-mail could not be sent. Please try again in a moment.")
        ) from None
    return LoginRequested(email=email, browser_id=browser_id)


def login_code_pending(*, email: str, browser_id: str) -> bool:
    """Whether the browser holding ``browser_id`` has a code for ``email`` it can still use."""
    if not is_browser_id(browser_id):
        return False
    try:
        email = canonical_email(email)
    except ValueError:
        return False
    pending = _usable(email, timezone.now()).filter(browser_hash=_browser_digest(browser_id))
    return pending.exists()


# --- Signing in -------------------------------------------------------------------------------


def _sign_in(email: str) -> SignedIn:
    """The account for ``email``, created at its first sign-in (the main app hangs its work on
    ``user_logged_in``)."""
    user = User.objects.filter(email=email).first()
    created = False
    if user is None:
        try:
            with transaction.atomic():
                user = User.objects.create_user(email, display_name_from_email(email))
                created = True
        except IntegrityError:  # created meanwhile by a sign-in in another process
            user = User.objects.get(email=email)
    if not user.is_active:
        raise LoginRefused(_("This account is disabled."))
    return SignedIn(user=user, created=created)


def login_with_code(*, email: str, code: str, browser_id: str) -> SignedIn:
    """Sign in with the code typed in the browser that asked for it (known by ``browser_id``).

    A wrong code counts; the fifth voids the code (the mail's link still works).
    """
    email = canonical_email(email)
    now = timezone.now()
    with transaction.atomic():
        row = (
            _usable(email, now)
            .select_for_update()
            .filter(browser_hash=_browser_digest(browser_id))
            .first()
            if is_browser_id(browser_id)
            else None
        )
        if row is None and not _usable(email, now).exists():
            refusal = LoginRefused(
                _(
                    "This code no longer works: it has expired, has been used, or a newer one "
                    "was sent. Ask for a new one."
                )
            )
        elif row is None:
            refusal = LoginRefused(
                _(
                    "This code was asked for in another browser. Follow the link in the "
                    "e-mail, or ask for a new code here."
                )
            )
        elif not hmac.compare_digest(row.code_hash, _code_digest(row, code)):
            row.attempts += 1
            left = MAX_WRONG_CODES - row.attempts
            if left <= 0:
                row.code_voided_at = now
                refusal = LoginRefused(
                    _("Too many wrong codes: this one no longer works. Ask for a new one.")
                )
            else:
                refusal = LoginRefused(
                    ngettext(
                        "That is not the code. %(count)d try left.",
                        "That is not the code. %(count)d tries left.",
                        left,
                    )
                    % {"count": left}
                )
            row.save(update_fields=["attempts", "code_voided_at"])
        else:
            row.used_at = now
            row.save(update_fields=["used_at"])
            _void_others(row, now)
            return _sign_in(email)
    # Raised outside the transaction so that the wrong attempt stays counted.
    raise refusal


def link_no_longer_works() -> LoginRefused:
    return LoginRefused(
        _(
            "This sign-in link no longer works: it has expired, has been used, or a "
            "newer one was sent. Ask for a new one."
        )
    )


def _link_row(token: str, *, lock: bool = False) -> LoginCode | None:
    rows = LoginCode.objects.filter(link_token_hash=_digest("link", token))
    row = (rows.select_for_update() if lock else rows).first()
    if row is None or not row.link_usable_at(timezone.now()):
        return None
    return row


def login_link_email(*, token: str) -> str | None:
    """The address a still-valid link signs in, or None. Reads only: a GET spends nothing."""
    row = _link_row(token)
    return row.email if row is not None else None


def login_link_from_this_browser(*, token: str, browser_id: str) -> bool:
    """Whether a still-valid link was asked for by the browser holding ``browser_id``."""
    row = _link_row(token)
    return (
        row is not None
        and bool(browser_id)
        and hmac.compare_digest(row.browser_hash, _browser_digest(browser_id))
    )


@transaction.atomic
def login_with_link(*, token: str) -> SignedIn:
    """Sign in with the link from the mail, on any device; spends its code too."""
    row = _link_row(token, lock=True)
    if row is None:
        raise link_no_longer_works()
    row.used_at = timezone.now()
    row.save(update_fields=["used_at"])
    _void_others(row, row.used_at)
    return _sign_in(row.email)


# --- The account ------------------------------------------------------------------------------


@transaction.atomic
def display_name_set(*, user: User, display_name: str) -> User:
    user.display_name = " ".join(display_name.split())[:100]
    user.save(update_fields=["display_name"])
    return user
