"""The evening page's view-model: its games, their sheets and totals, the next deal's form.

The views of the table (evening_views, deal_views) build their context here.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from functools import cached_property
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.db.models import F, OuterRef, Subquery
from django.http import HttpRequest, QueryDict
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper import services
from scorekeeper.models import Deal, DeletedDeal, Evening, Game, Membership, Player, Seat
from scorekeeper.reads.charts import LineChart, evening_chart
from scorekeeper.reads.game_sheets import GameSheet, game_sheet
from scorekeeper.reads.sheet_changes import as_of_now, changed_from, moment
from scorekeeper.screens.table.deal_forms import (
    EscopetteDealForm,
    TarotDealForm,
    deal_form_class,
    initial_from_query,
)
from scorekeeper.server.parsing import parse_id

UNDO_OFFERED_FOR = timedelta(minutes=10)
TABLES_SECONDS = 3600  # an evening's games and seats kept at a version (``_tables_of``)


#: The session's place for the answers the counter hands back, until the evening shows them.
CARRIED_DEAL = "table.carried_deal"


def carry_deal(request: HttpRequest, evening: Evening) -> bool:
    """Keep the deal's answers the address brings back (``deal-*``) for the next page.

    True when there were some: the caller then sends the phone to the plain address, so
    that a reload, or the phone reopening the tab, gets a fresh form and not this deal.
    """
    if not any(key.startswith("deal-") for key in request.GET):
        return False
    request.session[CARRIED_DEAL] = {"evening": evening.pk, "query": request.GET.urlencode()}
    return True


def carried_deal(request: HttpRequest, evening: Evening) -> QueryDict | None:
    """The answers kept by carry_deal for this evening, taken once."""
    kept = request.session.pop(CARRIED_DEAL, None) if hasattr(request, "session") else None
    if not isinstance(kept, dict) or kept.get("evening") != evening.pk:
        return None
    return QueryDict(str(kept.get("query", "")))


def evening_key(evening: Evening) -> str:
    """Names an evening as it stands: its version, raised by every change its pages show
    (``Evening.touch``). The parts of its page drawn from it are cached under it (the one
    caching rule: Django's cache, its keys carrying the release); the page reads the score
    sheets only to draw a part not cached yet."""
    return f"{evening.pk}.{evening.created_at.timestamp()}.{evening.version}"


def evening_url(evening: Evening, game: Game | None = None) -> str:
    url = reverse("evening", args=[evening.pk])
    return f"{url}#game-{game.pk}" if game else url


DealForm = TarotDealForm | EscopetteDealForm


def deal_form(
    request: HttpRequest,
    game: Game,
    *,
    data: Any = None,
    present: list[Player] | None = None,
    dealer: Player | None = None,
    number: int | None = None,
    carried: Mapping[str, Any] | None = None,
) -> DealForm:
    """The form for the next deal of a game (deal ``number``), ready for the next dealer.

    ``carried``: the answers the counter handed back (``deal-<field>`` parameters), once.
    """
    present = present if present is not None else services.present_players(game)
    tarot = game.kind == Game.Kind.TAROT
    if data is not None:  # what was sent is what counts: no need to work out the defaults
        # A duplicate table's form sends its case (the save checks it again, under its lock).
        sent_case = tarot and f"{TarotDealForm.prefix}-case_number" in data
        if sent_case and (cases := services.table_cases(game)) is not None:
            return TarotDealForm(data, game=game, present=present, cases=cases)
        return deal_form_class(game)(data, game=game, present=present)
    dealer = dealer or services.next_dealer(game, present)
    if carried and _carried_deal_stored(request, game, carried):
        carried = None
    initial: dict[str, Any] = {"dealer": dealer.pk, "number": number}
    if game.kind == Game.Kind.ESCOPETTE:
        return EscopetteDealForm(data, game=game, present=present, initial=initial)
    initial["sitting_out"] = [p.pk for p in services.default_sitting_out(game, present, dealer)]
    if carried:
        initial.update(initial_from_query(carried, list(TarotDealForm.base_fields)))
    # A duplicate table's cases, read with the evening's games (_tables_of) or else here.
    cases = game.cases if hasattr(game, "cases") else services.table_cases(game)
    form = TarotDealForm(data, game=game, present=present, initial=initial, cases=cases)
    form.returned = bool(carried)  # deal-entry.js asks for its preview at once
    return form


def deal_present(deal: Deal) -> list[Player]:
    """The players at the table when the deal was played, in seat order."""
    present = [score.player for score in deal.scores.select_related("player")]
    positions = dict(deal.game.seats.values_list("player_id", "position"))
    present.sort(key=lambda player: positions.get(player.pk, 99))
    return present


def _carried_deal_stored(request: HttpRequest, game: Game, carried: Mapping[str, Any]) -> bool:
    """Whether the answers the counter hands back are those of a deal stored since (its
    counter page, reached by Back): then nothing is filled in, the scorer is told, and the
    form is the next deal's as the stored deals make it (number, dealer, a key of its own).
    A deal another phone saved under the same number is not this: its save asks which."""
    key = str(carried.get("deal-idempotency_key", ""))[:64]
    stored = game.deals.filter(idempotency_key=key).first() if key else None
    if stored is None:
        return False
    messages.info(
        request,
        _(
            "The count brought back was for deal %(number)s, which is saved already: "
            "nothing was filled in. Count this deal's pile again if need be."
        )
        % {"number": stored.number},
    )
    return True


def _tables_of(evening: Evening) -> list[tuple[Game, list[Seat]]]:
    """An evening's games in order, each with its seats (and players), its last deal's number
    and dealer, its latest deletion not undone (``undo_id``, ``undo_at``, or None) and, at a
    duplicate table, the cases of its form (``cases``; a save checks them afresh): two
    queries (a tournament's table: its cases, two more), kept in the cache under the evening's
    version, which all of it raises (the one caching rule)."""
    key = f"evening.tables.{evening_key(evening)}"
    if (tables := cache.get(key)) is not None:
        return tables
    last = Deal.objects.filter(game=OuterRef("pk")).order_by("-number")
    undone = DeletedDeal.objects.filter(game=OuterRef("pk"), restored_at__isnull=True)
    undone = undone.order_by("-deleted_at")
    games = list(
        Game.objects.filter(evening=evening)
        .annotate(
            last_number=Subquery(last.values("number")[:1]),
            last_dealer=Subquery(last.values("dealer_id")[:1]),
            undo_id=Subquery(undone.values("pk")[:1]),
            undo_at=Subquery(undone.values("deleted_at")[:1]),
            table_pk=F("tournament_table"),  # a tournament's table: its cases, if duplicate
        )
        .order_by("number")
    )
    for game in games:
        game.cases = services.table_cases(game) if game.table_pk else None
    seats: dict[int, list[Seat]] = {game.pk: [] for game in games}
    for seat in Seat.objects.filter(game__in=games).select_related("player").order_by("position"):
        seats[seat.game_id].append(seat)
    tables = [(game, seats[game.pk]) for game in games]
    cache.set(key, tables, TABLES_SECONDS)
    return tables


class GameView:
    """A game as its evening page shows it.

    The score sheet (``sheet``) is read when the page first needs it. Attributes the view
    lacks are read from the sheet.
    """

    def __init__(self, game: Game, evening: Evening, seats: list[Seat]) -> None:
        self.game = game
        self.evening = evening
        self.seats = seats  # in seat order, with their players; the sheet reads them too
        self.present = [seat.player for seat in seats if seat.present]
        self.form: DealForm | None = None
        self.tail_from: int | None = None  # the first deal to redraw (mark_sheet_changes)
        # The games come annotated with their last deal (see _tables_of).
        self.next_number = (game.last_number or 0) + 1
        positions = {seat.player_id: seat.position for seat in seats}
        self.next_dealer = None
        if self.present:
            self.next_dealer = services.dealer_after(
                game, self.present, positions, game.last_dealer
            )

    @cached_property
    def sheet(self) -> GameSheet:
        return game_sheet(self.game, self.seats)

    @property
    def cache_key(self) -> str:
        """Names this game's sheet, totals strip and fresh form as they stand (see
        evening_key): what is drawn from them is cached under it."""
        return f"{evening_key(self.evening)}.{self.game.pk}"

    @cached_property
    def chart(self) -> LineChart | None:
        return evening_chart(self.sheet) if self.sheet.rows else None

    @property
    def winner(self) -> Player | None:
        if self.game.kind != Game.Kind.ESCOPETTE:
            return None
        return self.sheet.winner

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "sheet":
            raise AttributeError(name)
        return getattr(self.sheet, name)


class EveningTotal:
    """The French Tarot total of an evening over all its tarot games (shown with 2 or more).

    ``rows`` adds up each game's sheet totals, as read.
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


def page_context(
    request: HttpRequest,
    evening: Evening,
    membership: Membership | None,
    *,
    forms: dict[int, DealForm] | None = None,
    with_forms: bool = True,
    with_undo: bool = True,
    carried: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """What the evening page and its parts show. ``with_undo=False``: an answer that leaves
    the undo banner where it is (a save's, a live update) does not look for a deletion."""
    as_of = as_of_now()  # before anything is read: see reads.sheet_changes
    tables = _tables_of(evening)
    for game, _seats in tables:
        game.evening = evening
    views = [GameView(game, evening, seats) for game, seats in tables]
    can_write = membership is not None and not evening.is_closed
    deal_forms = forms or {}
    if views and can_write and with_forms:
        current = views[-1]
        if current.game.pk not in deal_forms and not current.winner:
            form = deal_form(
                request,
                current.game,
                present=current.present,
                dealer=current.next_dealer,
                number=current.next_number,
                carried=carried,
            )
            if not carried:
                form.fresh = True  # live.js may replace it when another phone saves
                form.cache_key = current.cache_key  # its fields are drawn once a version
            deal_forms[current.game.pk] = form
    for view in views:
        view.form = deal_forms.get(view.game.pk)
    undo = None
    if with_undo and membership is not None and not evening.is_closed:
        # The deletion just made (?undo=<id>), else one made in the last minutes (the latest
        # of the games'): the undo stays on offer when the scorer comes back to the page (not
        # once it is undone).
        deleted = DeletedDeal.objects.filter(game__evening=evening, restored_at__isnull=True)
        undo_id = parse_id(request.GET.get("undo"))
        if undo_id is not None:
            undo = deleted.filter(pk=undo_id).first()
        since = timezone.now() - UNDO_OFFERED_FOR
        recent = [
            (g.undo_at, g.undo_id) for g, _seats in tables if g.undo_id and g.undo_at >= since
        ]
        if undo is None and recent:
            undo = deleted.filter(pk=max(recent)[1]).first()
        # A deal saved since: undoing would no longer put the sheet back as it was.
        if (
            undo is not None
            and Deal.objects.filter(game_id=undo.game_id, created_at__gt=undo.deleted_at).exists()
        ):
            undo = None
    return {
        "evening": evening,
        "club": evening.club,
        "membership": membership,
        "sheets": views,
        "evening_total": EveningTotal(views),
        "evening_key": evening_key(evening),
        "edit_links": can_write,
        "undo": undo,
        "as_of": as_of,
    }


def since_of(value: str | None) -> int | None:
    """The page's moment it sends back (milliseconds), or None."""
    if not value or not value.isdigit() or len(value) > 16:
        return None
    return int(value)


def mark_sheet_changes(
    context: dict[str, Any], since_ms: int | None, *, saved: Deal | None = None
) -> None:
    """Set each game's ``tail_from``: the rows a page drawn at ``since_ms`` must redraw
    (all of them when it gives no moment; those from ``saved`` on, at least)."""
    since = moment(since_ms)
    for view in context["sheets"]:
        first = changed_from(view.game, since)
        if saved is not None and view.game.pk == saved.game_id:
            first = saved.number if first is None else min(first, saved.number)
        view.tail_from = first
