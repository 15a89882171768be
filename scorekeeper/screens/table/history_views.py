"""An evening's recently deleted deals: each with its restore, and one restore for all."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.exchange.error_text import refusal_message
from scorekeeper.reads.deal_history import deleted_deals, deleted_deals_url
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.screens.access import evening_for


@require_http_methods(["GET", "HEAD"])
def deleted_deals_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, membership = evening_for(request, evening_id)
    games = deleted_deals(evening)
    return render(
        request,
        "scorekeeper/table/deleted_deals.html",
        {
            "evening": evening,
            "club": evening.club,
            "membership": membership,
            "games": games,
            "several_games": evening.games.count() > 1,
            "can_restore": not evening.is_closed,
            "count": sum(len(game.lines) for game in games),
        },
    )


@require_http_methods(["POST"])
def deals_restore_all(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, _membership = evening_for(request, evening_id)
    try:
        restored = services.deals_restore_all(evening=evening, restored_by=request.user)
    except (services.ServiceError, ScoringError) as error:
        messages.error(request, refusal_message(error))
        return redirect(deleted_deals_url(evening))
    if restored:
        messages.success(
            request,
            ngettext(
                "%(count)s deal is back at its number.",
                "%(count)s deals are back at their numbers.",
                len(restored),
            )
            % {"count": len(restored)},
        )
    else:
        messages.info(request, _("No deleted deal to restore."))
    return redirect(reverse("evening", args=[evening.pk]))
