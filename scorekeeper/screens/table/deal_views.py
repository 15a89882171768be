"""The table's deals: preview, save, correct, delete and put back a deal."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.exchange.error_text import refusal_message
from scorekeeper.models import Deal, DeletedDeal, Game, Membership, Player
from scorekeeper.reads.deal_history import deal_history, deleted_deals_url
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.screens.access import deal_for, evening_closed, evening_for, game_for, queue_owner
from scorekeeper.screens.table.deal_forms import (
    EscopetteDealForm,
    TarotDealForm,
    deal_form_class,
    escopette_initial_for_deal,
    initial_for_deal,
    initial_from_query,
)
from scorekeeper.screens.table.evening_page import (
    DealForm,
    deal_form,
    deal_present,
    evening_url,
    mark_sheet_changes,
    page_context,
    since_of,
)
from scorekeeper.screens.tournaments.closed_table import round_closed_answer
from scorekeeper.server.parsing import parse_id
from scorekeeper.services.deal_keys import DealKeyUsed


@require_http_methods(["POST"])
@round_closed_answer
def deal_preview(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    game, membership = game_for(request, evening_id, game_id)
    deal_id = parse_id(request.GET.get("deal"))
    if "deal" in request.GET and deal_id is None:
        raise Http404
    if deal_id is not None:  # the edit page: the players of that deal, not of the table now
        deal, _membership = deal_for(request, evening_id, deal_id)
        if deal.game_id != game.pk:
            raise Http404
        form = deal_form_class(game)(request.POST, game=game, present=deal_present(deal))
        form.is_valid()
        if not request.htmx:
            return render(request, "scorekeeper/table/deal_edit.html", _edit_context(deal, form))
    else:
        form = deal_form(request, game, data=request.POST)
        form.is_valid()
        if not request.htmx:
            context = page_context(request, game.evening, membership, forms={game.pk: form})
            return render(request, "scorekeeper/table/evening.html", context)
    return render(request, f"{form.include_template}#preview", {"form": form, "game": game})


@require_http_methods(["GET", "HEAD", "POST"])
@round_closed_answer
def deal_create(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    """Save the next deal.

    Answers: a redirect to the evening (htmx: the next deal's form, the totals and the
    sheet, in place); 422 with the form and its errors; 409 with the question when another
    phone saved this deal's number first (header X-Deal-Conflict: that number).
    """
    game, membership = game_for(request, evening_id, game_id)
    if request.method != "POST":  # the address a refused save left in the bar, reloaded
        return redirect(evening_url(game.evening, game))
    typed_by = request.headers.get("X-Deal-Account")
    if typed_by is not None and typed_by != str(queue_owner(request)):
        # A deal kept offline by another account of this phone: it waits for its own.
        response = HttpResponse(_("This deal was typed by another account."), status=403)
        response["X-Deal-Account-Mismatch"] = "1"
        return response
    form = deal_form(request, game, data=request.POST)
    conflict: services.DealNumberTaken | None = None
    if form.is_valid() and form.inputs is not None:
        try:
            deal = services.deal_record(
                game=game,
                inputs=form.inputs,
                dealer=form.dealer_player(),
                created_by=request.user,
                idempotency_key=form.cleaned_data["idempotency_key"] or None,
                expected_number=form.cleaned_data["number"],
                case_number=form.cleaned_data.get("case_number"),
                present=form.present,  # read after game.evening: the save checks its version
            )
        except services.DealNumberTaken as taken:
            conflict = taken
            form = _form_for_another_deal(request, game, form, taken)
        except DealKeyUsed as used:
            form = _form_with_a_new_key(request, game, used)
        except (services.ServiceError, ScoringError) as error:
            form.add_error(None, refusal_message(error))
        else:
            if deal.already_stored:  # this tap stored nothing: it was sent and stored before
                saved = _("Deal %(number)s was saved already: nothing new is stored.") % {
                    "number": deal.number
                }
            else:
                saved = _("Deal %(number)s saved.") % {"number": deal.number}
            if request.htmx:
                return _entry_after_save(request, game, membership, saved, deal)
            messages.add_message(
                request, messages.INFO if deal.already_stored else messages.SUCCESS, saved
            )
            return redirect(evening_url(game.evening, game))
    context = page_context(request, game.evening, membership, forms={game.pk: form})
    status = 422
    if conflict is not None:
        status = 409
        context["conflict"] = _conflict_context(context, game, conflict)
    template = (
        "scorekeeper/table/deal_entry.html" if request.htmx else "scorekeeper/table/evening.html"
    )
    response = render(request, template, {**context, "game": game}, status=status)
    if conflict is not None:
        response["X-Deal-Conflict"] = str(conflict.number)
    return response


def _form_for_another_deal(
    request: HttpRequest, game: Game, form: DealForm, taken: services.DealNumberTaken
) -> DealForm:
    """The form the question re-posts: when its dealer is the one of the deal taken (the
    form's default then), "another deal" is dealt by the next dealer, as the table turns."""
    if taken.deal is None or form.cleaned_data["dealer"] != taken.deal.dealer_id:
        return form
    present = services.present_players(game)
    dealer = services.dealer_after(
        game, present, dict(game.seats.values_list("player_id", "position")), taken.deal.dealer_id
    )
    return _form_dealt_by(request, game, request.POST.copy(), present, dealer)


def _form_dealt_by(
    request: HttpRequest, game: Game, data: Any, present: list[Player], dealer: Player
) -> DealForm:
    """The form as sent (``data``), dealt by ``dealer``, with who sits out then (at 6)."""
    data["deal-dealer"] = str(dealer.pk)
    if game.kind == Game.Kind.TAROT:
        sitting_out = services.default_sitting_out(game, present, dealer)
        data.setlist("deal-sitting_out", [str(p.pk) for p in sitting_out])
    form = deal_form(request, game, data=data, present=present)
    form.is_valid()
    return form


def _form_with_a_new_key(request: HttpRequest, game: Game, used: DealKeyUsed) -> DealForm:
    """The form as typed, saying it was not saved, ready to be saved as the next deal:
    a key of its own, the number the next deal gets, and its dealer as the stored deals
    say (the old form's dealer was the old deal's)."""
    data = request.POST.copy()
    data["deal-idempotency_key"] = uuid.uuid4().hex
    last = game.deals.order_by("-number").values_list("number", flat=True).first()
    data["deal-number"] = str((last or 0) + 1)
    present = services.present_players(game)
    form = _form_dealt_by(request, game, data, present, services.next_dealer(game, present))
    form.add_error(None, used.message)
    return form


def _conflict_context(
    context: dict[str, Any], game: Game, taken: services.DealNumberTaken
) -> dict[str, Any]:
    """What the question shows: the other phone's deal, as its sheet row, and the way on."""
    row = None
    if taken.deal is not None:
        view = next(v for v in context["sheets"] if v.game.pk == game.pk)
        row = next((r for r in view.rows if r.deal.pk == taken.deal.pk), None)
    # "Another deal": the number after the one taken (the question comes again if that
    # one is taken too); past the end (deals deleted meanwhile), the number a save gets.
    again = taken.number + 1 if taken.deal is not None else taken.next_number
    return {"number": taken.number, "row": row, "save_as": again, "game": game}


def _entry_after_save(
    request: HttpRequest, game: Game, membership: Membership | None, saved: str, deal: Deal
) -> HttpResponse:
    """The htmx answer to a save: the next deal's form in place, the new totals, and the
    sheet's rows that changed since the page's moment (``sheet-since``), the new one last."""
    # The evening as the save left it, its version raised (see deal_record): the cached
    # parts follow. The club read by the access check goes with it.
    evening = deal.game.evening
    evening.club = game.evening.club
    context = page_context(request, evening, membership, with_undo=False)  # not shown
    mark_sheet_changes(context, since_of(request.POST.get("sheet-since")), saved=deal)
    view = next(v for v in context["sheets"] if v.game.pk == game.pk)
    if view.form is None:  # the game has ended: the page changes, load it whole
        messages.success(request, saved)
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    context.update(
        game=game, saved=saved, saved_number=deal.number, saved_before=deal.already_stored
    )
    return render(request, "scorekeeper/table/deal_entry.html", context)


def _edit_context(deal: Deal, form: DealForm) -> dict[str, Any]:
    evening = deal.game.evening
    preview = reverse("deal_preview", args=[evening.pk, deal.game_id])
    return {
        "evening": evening,
        "club": evening.club,
        "deal": deal,
        "game": deal.game,
        "form": form,
        "preview_url": f"{preview}?deal={deal.pk}",
        "history": deal_history(deal),
    }


@require_http_methods(["GET", "POST"])
@round_closed_answer
def deal_edit(request: HttpRequest, evening_id: int, deal_id: int) -> HttpResponse:
    deal, _membership = deal_for(request, evening_id, deal_id)
    if deal.paper:  # a deal known by its scores has its own form
        return redirect("paper_deal_edit", evening_id, deal.pk)
    game = deal.game
    evening = game.evening
    present = deal_present(deal)
    form_class = deal_form_class(game)
    if request.method == "POST":
        if evening.is_closed:
            raise evening_closed(evening)
        form = form_class(request.POST, game=game, present=present)
        if form.is_valid() and form.inputs is not None:
            try:
                deal = services.deal_update(
                    deal=deal,
                    inputs=form.inputs,
                    dealer=form.dealer_player(),
                    changed_by=request.user,
                )
            except services.DealGone as error:  # another phone deleted it meanwhile
                messages.error(request, error.message)
                return redirect(deleted_deals_url(evening))
            except (services.ServiceError, ScoringError) as error:
                form.add_error(None, refusal_message(error))
            else:
                messages.success(request, _("Deal %(number)s changed.") % {"number": deal.number})
                return redirect(evening_url(evening, game))
    elif game.kind == Game.Kind.ESCOPETTE:
        form = EscopetteDealForm(
            game=game, present=present, initial=escopette_initial_for_deal(deal)
        )
    else:
        initial = initial_for_deal(deal, present)
        initial.update(initial_from_query(request.GET, list(TarotDealForm.base_fields)))
        form = TarotDealForm(game=game, present=present, initial=initial)
    return render(request, "scorekeeper/table/deal_edit.html", _edit_context(deal, form))


@require_http_methods(["POST"])
@round_closed_answer
def deal_delete(request: HttpRequest, evening_id: int, deal_id: int) -> HttpResponse:
    deal, _membership = deal_for(request, evening_id, deal_id)
    try:
        deleted = services.deal_delete(deal=deal, deleted_by=request.user)
    except services.DealGone:  # two taps on Delete at once: the first one deleted it
        messages.info(request, _("This deal was already deleted."))
        return redirect(deleted_deals_url(deal.game.evening))
    except services.ServiceError as error:
        messages.error(request, error.message)
        return redirect(evening_url(deal.game.evening))
    url = reverse("evening", args=[evening_id])
    return redirect(f"{url}?undo={deleted.pk}#undo")


@require_http_methods(["POST"])
@round_closed_answer
def deal_restore(request: HttpRequest, evening_id: int, deleted_id: int) -> HttpResponse:
    evening, _membership = evening_for(request, evening_id)
    deleted = get_object_or_404(DeletedDeal, pk=deleted_id, game__evening=evening)
    try:
        deal = services.deal_restore(deleted=deleted, restored_by=request.user)
    except services.DealAlreadyRestored as error:  # two taps on Undo: the first put it back
        messages.info(request, error.message)
    except (services.ServiceError, ScoringError) as error:
        messages.error(request, refusal_message(error))
    else:
        messages.success(request, _("Deal %(number)s is back.") % {"number": deal.number})
    return redirect(evening_url(evening))
