"""The sign-in mail: the code and the link, in the reader's language, text and HTML."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import translation

from accounts.addresses import mail_address
from accounts.models import CODE_LIFETIME, LINK_LIFETIME


def login_mail_send(*, email: str, code: str, link: str, language: str) -> None:
    """The sign-in mail, in ``language``: plain text with an HTML alternative."""
    context = {
        "code": code,
        "link": link,
        "minutes": int(CODE_LIFETIME.total_seconds() // 60),
        "link_minutes": int(LINK_LIFETIME.total_seconds() // 60),
        "language": language,
    }
    with translation.override(language):
        subject = " ".join(render_to_string("accounts/email/login_subject.txt", context).split())
        text = render_to_string("accounts/email/login_body.txt", context)
        html = render_to_string("accounts/email/login_body.html", context)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail_address(email)],  # the domain in ASCII (IDNA 2008), see accounts.addresses
        headers={"Content-Language": language},
    )
    message.attach_alternative(html, "text/html")
    message.send()
