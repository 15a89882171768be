"""The club's house rules: the page that explains them, the owner's change, and an open
evening's rescore after a preview."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.exchange.error_text import error_text
from scorekeeper.models import Evening, Membership
from scorekeeper.reads.house_rules import rescore_preview
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.rules import RULE_KEYS
from scorekeeper.screens.access import evening_closed, evening_for, membership_for, owner_only
from scorekeeper.screens.clubs.rules_examples import examples
from scorekeeper.screens.clubs.rules_forms import HouseRulesForm
from scorekeeper.screens.rules_text import RULE_EXPLAINED, RULE_NAMES, choice_label, rules_line


def _rules_context(membership: Membership, form: HouseRulesForm | None) -> dict[str, Any]:
    club = membership.club
    current = club.house_rules
    shown = examples(current)
    open_evenings = [
        evening
        for evening in club.evenings.filter(closed_at__isnull=True).order_by("date", "pk")
        if evening.house_rules != current
    ]
    return {
        "club": club,
        "membership": membership,
        "is_owner": membership.is_owner,
        "form": form,
        "rules_line": rules_line(current),
        "rules": [
            {
                "key": rule,
                "name": RULE_NAMES[rule],
                "explained": RULE_EXPLAINED[rule],
                "chosen": choice_label(rule, getattr(current, rule)),
                "field": form[rule] if form is not None else None,
                "example": shown[rule],
            }
            for rule in RULE_KEYS
        ],
        "open_evenings": open_evenings if membership.is_owner else [],
    }


@require_http_methods(["GET", "HEAD", "POST"])
def club_rules(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = membership_for(request, club_id)
    club = membership.club
    if request.method == "POST" and not membership.is_owner:
        raise owner_only(reverse("club_rules", args=[club.pk]), _("Back to the club's rules"))
    form = None
    if membership.is_owner:
        form = HouseRulesForm(request.POST or None, current=club.house_rules)
    if request.method == "POST" and form is not None and form.is_valid() and form.rules:
        services.club_rules_set(club=club, rules=form.rules)
        messages.success(
            request,
            _("The club's rules are now: %(rules)s. Evenings already started keep theirs.")
            % {"rules": rules_line(form.rules)},
        )
        return redirect(reverse("club_rules", args=[club.pk]))
    return render(request, "scorekeeper/clubs/rules.html", _rules_context(membership, form))


def _owner_open_evening(request: HttpRequest, evening_id: int) -> Evening:
    evening, membership = evening_for(request, evening_id)
    if not membership.is_owner:
        raise owner_only(reverse("evening", args=[evening.pk]), _("Back to the evening"))
    if evening.is_closed:
        raise evening_closed(evening)
    return evening


@require_http_methods(["GET", "HEAD", "POST"])
def evening_rescore(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The preview of an open evening scored by the club's rules; the POST rescores it."""
    evening = _owner_open_evening(request, evening_id)
    proposed = evening.club.house_rules
    error = ""
    if request.method == "POST":
        try:
            services.evening_rescore(evening=evening, rules=proposed)
        except ScoringError as refusal:
            error = error_text(refusal)
        except services.ServiceError as refusal:
            error = refusal.message
        else:
            messages.success(
                request,
                _("The evening is now scored by %(rules)s.") % {"rules": rules_line(proposed)},
            )
            return redirect(reverse("evening", args=[evening.pk]))
    preview = rescore_preview(evening, proposed)
    context = {
        "evening": evening,
        "club": evening.club,
        "preview": preview,
        "current_line": rules_line(preview.current),
        "proposed_line": rules_line(preview.proposed),
        "error": error or (error_text(preview.error) if preview.error is not None else ""),
    }
    return render(request, "scorekeeper/clubs/rescore.html", context, status=422 if error else 200)
