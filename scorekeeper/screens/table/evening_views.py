"""The table: start an evening, enter deals, correct them, follow the score live."""

from __future__ import annotations

from datetime import timedelta
from functools import cached_property
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.exchange.error_text import refusal_message
from scorekeeper.models import Deal, DeletedDeal, Evening, Game, Membership, Player
from scorekeeper.reads import live
from scorekeeper.reads.charts import LineChart, evening_chart
from scorekeeper.reads.deal_history import deal_history, deleted_deals_url
from scorekeeper.reads.game_sheets import GameSheet, game_sheet
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.screens.access import deal_for, evening_for, game_for, membership_for
from scorekeeper.screens.table.deal_forms import (
    EscopetteDealForm,
    TarotDealForm,
    deal_form_class,
    escopette_initial_for_deal,
    initial_for_deal,
    initial_from_query,
)
from scorekeeper.screens.table.evening_forms import EveningStartForm, GameStartForm, SeatJoinForm
from scorekeeper.server.parsing import parse_id

NOT_MODIFIED = 304
UNDO_OFFERED_FOR = timedelta(minutes=10)


def _evening_url(evening: Evening, game: Game | None = None) -> str:
    url = reverse("evening", args=[evening.pk])
    return f"{url}#game-{game.pk}" if game else url


DealForm = TarotDealForm | EscopetteDealForm


def _deal_form(
    request: HttpRequest,
    game: Game,
    *,
    data: Any = None,
    present: list[Player] | None = None,
    dealer: Player | None = None,
    number: int | None = None,
) -> DealForm:
    """The form for the next deal of a game (deal ``number``), ready for the next dealer."""
    present = present if present is not None else services.present_players(game)
    if data is not None:  # what was sent is what counts: no need to work out the defaults
        return deal_form_class(game)(data, game=game, present=present)
    dealer = dealer or services.next_dealer(game, present)
    initial: dict[str, Any] = {"dealer": dealer.pk, "number": number}
    if game.kind == Game.Kind.ESCOPETTE:
        return EscopetteDealForm(data, game=game, present=present, initial=initial)
    initial["sitting_out"] = [p.pk for p in services.default_sitting_out(game, present, dealer)]
    initial.update(initial_from_query(request.GET, list(TarotDealForm.base_fields)))
    return TarotDealForm(data, game=game, present=present, initial=initial)


class GameView:
    """A game as its evening page shows it.

    The score sheet (``sheet``) is built only when the page needs it: its rendered totals,
    chart and rows are cached under the evening's version, which every change bumps.
    Attributes the view lacks are read from the sheet.
    """

    def __init__(self, game: Game, evening: Evening) -> None:
        self.game = game
        self.evening = evening
        seats = list(game.seats.select_related("player").order_by("position"))
        self.present = [seat.player for seat in seats if seat.present]
        self.form: DealForm | None = None
        # The games come annotated with their last deal (see _games).
        last_number, last_dealer = game.last_number or 0, game.last_dealer
        self.next_number = last_number + 1
        positions = {seat.player_id: seat.position for seat in seats}
        self.next_dealer = (
            services.dealer_after(game, self.present, positions, last_dealer)
            if self.present
            else None
        )

    @cached_property
    def sheet(self) -> GameSheet:
        return game_sheet(self.game)

    @cached_property
    def chart(self) -> LineChart | None:
        return evening_chart(self.sheet) if self.sheet.rows else None

    @property
    def winner(self) -> Player | None:
        if self.game.kind != Game.Kind.ESCOPETTE:
            return None
        return self.sheet.winner

    @property
    def cache_key(self) -> str:
        """Names this game's sheet as it stands: a new evening, game or change, a new key."""
        created = self.evening.created_at.timestamp()
        return f"{self.evening.pk}.{created}.{self.game.pk}.{self.evening.version}"

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "sheet":
            raise AttributeError(name)
        return getattr(self.sheet, name)


def _recent_deletion(evening: Evening) -> DeletedDeal | None:
    """The deletion of the last minutes, if any: its undo stays on offer.

    Looked up once per version of the evening (a delete or an undo bumps it), so the
    evening page usually pays a cache hit, not a query.
    """
    key = f"recent-deletion.{evening.pk}.{evening.created_at.timestamp()}.{evening.version}"
    latest = cache.get(key)
    if latest is None:
        latest = (
            DeletedDeal.objects.filter(game__evening=evening, restored_at__isnull=True)
            .order_by("-deleted_at")
            .first()
            or False
        )
        cache.set(key, latest, UNDO_OFFERED_FOR.total_seconds())
    if latest and latest.deleted_at >= timezone.now() - UNDO_OFFERED_FOR:
        return latest
    return None


class EveningTotal:
    """The French Tarot total of an evening over all its tarot games (shown with 2 or more).

    Built only when the page's cached block misses: ``rows`` reads each game's sheet.
    """

    def __init__(self, views: list[GameView]) -> None:
        self.views = [v for v in views if v.game.kind == Game.Kind.TAROT]

    @property
    def shown(self) -> bool:
        return len(self.views) > 1

    @cached_property
    def rows(self) -> list[tuple[Player, int]]:
        totals: dict[int, int] = {}
        players: dict[int, Player] = {}
        for view in self.views:
            for player, total in view.sheet.totals_by_player:
                players.setdefault(player.pk, player)
                totals[player.pk] = totals.get(player.pk, 0) + total
        return [(players[pk], totals[pk]) for pk in players]


def _page_context(
    request: HttpRequest,
    evening: Evening,
    membership: Membership | None,
    *,
    forms: dict[int, DealForm] | None = None,
    with_forms: bool = True,
) -> dict[str, Any]:
    last = Deal.objects.filter(game=OuterRef("pk")).order_by("-number")
    games = list(
        evening.games.annotate(
            last_number=Subquery(last.values("number")[:1]),
            last_dealer=Subquery(last.values("dealer_id")[:1]),
        ).order_by("number")
    )
    views = [GameView(game, evening) for game in games]
    can_write = membership is not None and not evening.is_closed
    deal_forms = forms or {}
    if views and can_write and with_forms:
        current = views[-1]
        if current.game.pk not in deal_forms and not current.winner:
            form = _deal_form(
                request,
                current.game,
                present=current.present,
                dealer=current.next_dealer,
                number=current.next_number,
            )
            if not any(key.startswith("deal-") for key in request.GET):
                # A fresh form shows only the game's state: cache its fields with the sheet.
                path = request.get_full_path()
                form.cache_key = f"{current.cache_key}.{get_language()}.{path}"
                form.cache_seconds = 3600
                form.fresh = True  # live.js may replace it when another phone saves
            deal_forms[current.game.pk] = form
    for view in views:
        view.form = deal_forms.get(view.game.pk)
    undo = None
    if membership is not None and not evening.is_closed:
        # The deletion just made (?undo=<id>), else one made in the last minutes: the undo
        # stays on offer when the scorer comes back to the page (not once it is undone).
        deleted = DeletedDeal.objects.filter(game__evening=evening, restored_at__isnull=True)
        undo_id = parse_id(request.GET.get("undo"))
        if undo_id is not None:
            undo = deleted.filter(pk=undo_id).first()
        if undo is None:
            undo = _recent_deletion(evening)
    return {
        "evening": evening,
        "club": evening.club,
        "membership": membership,
        "sheets": views,
        "evening_total": EveningTotal(views),
        "edit_links": can_write,
        "undo": undo,
    }


@require_http_methods(["GET", "HEAD", "POST"])
def evening_new(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = membership_for(request, club_id)
    club = membership.club
    players = list(club.players.filter(retired=False))
    form = EveningStartForm(request.POST or None, players=players)
    if request.method == "POST" and form.is_valid():
        try:
            evening = services.evening_start(
                club=club,
                players=form.cleaned_data["players"],
                first_dealer=form.cleaned_data["dealer"],
                created_by=request.user,
                date=form.cleaned_data["date"],
                place=form.cleaned_data["place"],
                kind=form.cleaned_data["kind"],
                five_mode=form.cleaned_data["five_mode"],
                target=form.cleaned_data["target"],
            )
        except services.ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect(_evening_url(evening))
    return render(
        request,
        "scorekeeper/table/evening_new.html",
        {"club": club, "form": form, "players": players},
    )


@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Another game in the same evening: French Tarot or L'escopette."""
    evening, _membership = evening_for(request, evening_id)
    if evening.is_closed:
        raise Http404
    players = list(evening.club.players.filter(retired=False))
    last = evening.games.order_by("-number").first()
    initial: dict[str, Any] = {}
    if last is not None:
        seated = [s.player for s in last.seats.filter(present=True).order_by("position")[:6]]
        for position, player in enumerate(seated, start=1):
            initial[f"seat_{position}"] = player.pk
        # One evening: the deal keeps turning round the table from game to game.
        if seated:
            dealer = services.next_dealer(last, seated)
            if dealer in seated:
                initial["first_dealer"] = seated.index(dealer) + 1
    form = GameStartForm(request.POST or None, players=players, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_start(
                evening=evening,
                players=form.cleaned_data["players"],
                first_dealer=form.cleaned_data["dealer"],
                kind=form.cleaned_data["kind"],
                five_mode=form.cleaned_data["five_mode"],
                target=form.cleaned_data["target"],
            )
        except services.ServiceError as error:
            form.add_error(None, error.message)
        else:
            return redirect(_evening_url(evening, game))
    return render(
        request,
        "scorekeeper/table/game_new.html",
        {"evening": evening, "club": evening.club, "form": form, "players": players},
    )


@require_http_methods(["GET", "HEAD"])
def rules_escopette(request: HttpRequest) -> HttpResponse:
    return render(request, "scorekeeper/table/rules_escopette.html")


@require_http_methods(["GET", "HEAD"])
def evening(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, membership = evening_for(request, evening_id)
    context = _page_context(request, evening, membership)
    return render(request, "scorekeeper/table/evening.html", context)


def _live(request: HttpRequest, evening: Evening, membership: Membership | None) -> HttpResponse:
    if request.GET.get("version") == str(evening.version):
        return HttpResponse(status=NOT_MODIFIED)
    # A member's page gets the next deal's form too: an untouched open form follows it.
    context = _page_context(request, evening, membership, with_forms=membership is not None)
    context["shared"] = membership is None
    return render(request, "scorekeeper/table/evening_live.html", context)


@require_http_methods(["GET", "HEAD"])
def evening_live(request: HttpRequest, evening_id: int) -> HttpResponse:
    unchanged = live.member_not_modified(request, evening_id)
    if unchanged is not None:
        return unchanged
    evening, membership = evening_for(request, evening_id)
    live.remember_member(request, evening.pk)
    return _live(request, evening, membership)


def _shared_evening(token: str) -> Evening:
    if not token:
        raise Http404
    return get_object_or_404(Evening.objects.select_related("club"), share_token=token)


@require_http_methods(["GET", "HEAD"])
def evening_shared(request: HttpRequest, token: str) -> HttpResponse:
    evening = _shared_evening(token)
    context = _page_context(request, evening, None)
    context["shared"] = True
    return render(request, "scorekeeper/table/evening.html", context)


@require_http_methods(["GET", "HEAD"])
def evening_shared_live(request: HttpRequest, token: str) -> HttpResponse:
    unchanged = live.shared_not_modified(request, token)
    if unchanged is not None:
        return unchanged
    evening = _shared_evening(token)
    live.remember_shared(token, evening.pk)
    return _live(request, evening, None)


@require_http_methods(["POST"])
def deal_preview(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    game, membership = game_for(request, evening_id, game_id)
    deal_id = parse_id(request.GET.get("deal"))
    if "deal" in request.GET and deal_id is None:
        raise Http404
    if deal_id is not None:  # the edit page: the players of that deal, not of the table now
        deal, _membership = deal_for(request, evening_id, deal_id)
        if deal.game_id != game.pk:
            raise Http404
        form = deal_form_class(game)(request.POST, game=game, present=_deal_present(deal))
        form.is_valid()
        if not request.htmx:
            return render(request, "scorekeeper/table/deal_edit.html", _edit_context(deal, form))
    else:
        form = _deal_form(request, game, data=request.POST)
        form.is_valid()
        if not request.htmx:
            context = _page_context(request, game.evening, membership, forms={game.pk: form})
            return render(request, "scorekeeper/table/evening.html", context)
    return render(request, f"{form.include_template}#preview", {"form": form, "game": game})


@require_http_methods(["GET", "HEAD", "POST"])
def deal_create(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    """Save the next deal.

    Answers: a redirect to the evening (htmx: the next deal's form, the totals and the
    sheet, in place); 422 with the form and its errors; 409 with the question when another
    phone saved this deal's number first (header X-Deal-Conflict: that number).
    """
    game, membership = game_for(request, evening_id, game_id)
    if request.method != "POST":  # the address a refused save left in the bar, reloaded
        return redirect(_evening_url(game.evening, game))
    form = _deal_form(request, game, data=request.POST)
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
            )
        except services.DealNumberTaken as taken:
            conflict = taken
            form = _form_for_another_deal(request, game, form, taken)
        except (services.ServiceError, ScoringError) as error:
            form.add_error(None, refusal_message(error))
        else:
            saved = _("Deal %(number)s saved.") % {"number": deal.number}
            if request.htmx:
                return _entry_after_save(request, game, membership, saved)
            messages.success(request, saved)
            return redirect(_evening_url(game.evening, game))
    context = _page_context(request, game.evening, membership, forms={game.pk: form})
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
    data = request.POST.copy()
    data["deal-dealer"] = str(dealer.pk)
    if game.kind == Game.Kind.TAROT:
        sitting_out = services.default_sitting_out(game, present, dealer)
        data.setlist("deal-sitting_out", [str(p.pk) for p in sitting_out])
    form = _deal_form(request, game, data=data, present=present)
    form.is_valid()
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
    request: HttpRequest, game: Game, membership: Membership | None, saved: str
) -> HttpResponse:
    """The htmx answer to a save: the next deal's form in place, new totals and sheet."""
    game.evening.refresh_from_db()  # the save bumped its version: the cached parts follow
    context = _page_context(request, game.evening, membership)
    view = next(v for v in context["sheets"] if v.game.pk == game.pk)
    if view.form is None:  # the game has ended: the page changes, load it whole
        messages.success(request, saved)
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    context.update(game=game, saved=saved)
    return render(request, "scorekeeper/table/deal_entry.html", context)


def _deal_present(deal: Deal) -> list[Player]:
    """The players at the table when the deal was played, in seat order."""
    present = [score.player for score in deal.scores.select_related("player")]
    positions = dict(deal.game.seats.values_list("player_id", "position"))
    present.sort(key=lambda player: positions.get(player.pk, 99))
    return present


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
def deal_edit(request: HttpRequest, evening_id: int, deal_id: int) -> HttpResponse:
    deal, _membership = deal_for(request, evening_id, deal_id)
    if deal.paper:  # a deal known by its scores has its own form
        return redirect("paper_deal_edit", evening_id, deal.pk)
    game = deal.game
    evening = game.evening
    present = _deal_present(deal)
    form_class = deal_form_class(game)
    if request.method == "POST":
        form = form_class(request.POST, game=game, present=present)
        if not evening.is_closed and form.is_valid() and form.inputs is not None:
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
                return redirect(_evening_url(evening, game))
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
def deal_delete(request: HttpRequest, evening_id: int, deal_id: int) -> HttpResponse:
    deal, _membership = deal_for(request, evening_id, deal_id)
    try:
        deleted = services.deal_delete(deal=deal, deleted_by=request.user)
    except services.DealGone:  # two taps on Delete at once: the first one deleted it
        messages.info(request, _("This deal was already deleted."))
        return redirect(deleted_deals_url(deal.game.evening))
    except services.ServiceError as error:
        messages.error(request, error.message)
        return redirect(_evening_url(deal.game.evening))
    url = reverse("evening", args=[evening_id])
    return redirect(f"{url}?undo={deleted.pk}#undo")


@require_http_methods(["POST"])
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
    return redirect(_evening_url(evening))


@require_http_methods(["GET", "HEAD", "POST"])
def seat_join(request: HttpRequest, evening_id: int, game_id: int) -> HttpResponse:
    """Who is at the table: players leave, others join (a page of its own, rarely needed)."""
    game, _membership = game_for(request, evening_id, game_id)
    if game.evening.is_closed:
        raise Http404
    present = services.present_players(game)
    absent = [p for p in game.evening.club.players.filter(retired=False) if p not in present]
    form = SeatJoinForm(request.POST or None, absent=absent, present=present)
    if request.method == "POST" and form.is_valid():
        player, after = form.chosen()
        try:
            services.seat_join(game=game, player=player, after=after)
        except services.ServiceError as error:
            form.add_error("player", error.message)
        else:
            messages.success(request, _("%(name)s joins the table.") % {"name": player})
            return redirect(_evening_url(game.evening, game))
    return render(
        request,
        "scorekeeper/table/seats.html",
        {
            "evening": game.evening,
            "club": game.evening.club,
            "game": game,
            "present": present,
            "form": form,
        },
    )


@require_http_methods(["POST"])
def seat_leave(request: HttpRequest, evening_id: int, game_id: int, player_id: int) -> HttpResponse:
    game, _membership = game_for(request, evening_id, game_id)
    player = get_object_or_404(game.evening.club.players, pk=player_id)
    try:
        services.seat_leave(game=game, player=player)
    except services.ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s leaves the table.") % {"name": player})
    return redirect(_evening_url(game.evening, game))


def _owner_evening(request: HttpRequest, evening_id: int) -> Evening:
    evening, membership = evening_for(request, evening_id)
    if not membership.is_owner:
        raise Http404
    return evening


@require_http_methods(["POST"])
def evening_close(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = services.evening_close(evening=_owner_evening(request, evening_id))
    return redirect(_evening_url(evening))


@require_http_methods(["POST"])
def evening_reopen(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = services.evening_reopen(evening=_owner_evening(request, evening_id))
    return redirect(_evening_url(evening))


@require_http_methods(["POST"])
def share_link_create(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = services.share_link_create(evening=_owner_evening(request, evening_id))
    return redirect(_evening_url(evening))


@require_http_methods(["POST"])
def share_link_revoke(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = services.share_link_revoke(evening=_owner_evening(request, evening_id))
    return redirect(_evening_url(evening))
