"""The settings and texts the page scripts of the installable app read (pwa.js, deal-queue.js,
deal-draft.js)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from scorekeeper.screens.access import queue_owner

register = template.Library()


@register.simple_tag(takes_context=True)
def pwa_config(context: dict[str, Any]) -> SafeString:
    """A ``<script type="application/json" id="sk-pwa">`` block; ``userId`` names whose offline
    deals this page may send (``screens.access.queue_owner``)."""
    user = context.get("user")
    signed_in = user is not None and user.is_authenticated
    request = context.get("request")
    data = {
        "serviceWorker": reverse("service_worker"),
        "loginUrl": reverse("accounts:login"),
        # a request refused before the authentication middleware (an unknown Host) has no user
        "userId": queue_owner(request) if hasattr(request, "user") else None,
        "userName": str(user) if signed_in else "",
        "texts": {
            "offlineCopy": _("Offline — as of %(time)s"),
            "heading": _("Deals waiting to be sent"),
            "count": _("Waiting to be sent: %(count)s"),
            "deal": _("Deal %(number)s"),
            "waiting": _("waiting to be sent"),
            "attention": _("needs attention: the server refused it"),
            "conflict": _("Another phone saved deal %(number)s meanwhile."),
            "same": _("Same deal — discard mine"),
            "another": _("Another deal — save as %(number)s"),
            "retry": _("Try again"),
            "sendNow": _("Send now"),
            "discard": _("Discard"),
            "provisional": _(
                "The totals are provisional: they do not count the deals waiting to be sent."
            ),
            "previewOffline": _(
                "No network: the score of this deal will be computed when it is sent."
            ),
            "kept": _("Kept on this phone: the score will be computed when the deal is sent."),
            "otherAccount": _("typed by %(name)s: sent once they sign in on this phone"),
            "signOutWaiting": _(
                "Deals typed on this phone wait to be sent: %(count)s. Signed out, they stay "
                "here and are sent only when you sign in again."
            ),
            "draftRestored": _("Draft restored: this deal as you left it."),
            "draftDiscard": _("Discard the draft"),
            "sendFirst": _("Send them first"),
            "signOutAnyway": _("Sign out anyway"),
        },
    }
    return json_script(data, "sk-pwa")
