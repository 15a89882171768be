"""Who may see what. Who is not a member of a club gets 404 for all of it, except a
tournament table's phone, granted its evening's deal entry while its round is open
(``TableRoundClosed`` after). Who knows the club is told why (a ``Refusal``): the owner's
actions (403), a removed account (403), a closed evening (409).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from scorekeeper.models import Club, Deal, Evening, Game, Membership, TournamentTable
from scorekeeper.server.error_pages import Refusal
from scorekeeper.services.joins import join_refused

# The session's tournament tables: {evening id: the table's token}.
TABLE_GRANTS = "tournament_tables"
# The views of an evening that a table's link opens: its page, the deal entry and undo.
TABLE_GRANT_VIEWS = frozenset(
    {
        "evening",
        "evening_live",
        "evening_events",
        "deal_create",
        "deal_preview",
        "deal_edit",
        "deal_delete",
        "deal_restore",
        "deleted_deals",
        "deals_restore_all",
    }
)


_USER = get_user_model()

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


class TableRoundClosed(Http404):
    """This session scored at ``table``, whose round (or evening) has closed since."""

    def __init__(self, table: TournamentTable) -> None:
        super().__init__("round closed")
        self.table = table


def membership_for(request: HttpRequest, club_id: int) -> Membership:
    """The signed-in person's membership of the club, or 404 (nothing says the club exists);
    an account the owner removed is told so (403). The account is read with the membership in
    one query (checked as ``auth.get_user`` would: active, its session mark) and made the
    request's user; else ``request.user``, as Django reads it, decides."""
    account = _session_account(request)
    members = Membership.objects.select_related("club", "user")  # one row at most: unique
    found = account and next(
        iter(members.filter(club_id=club_id, user_id=account[0], user__is_active=True)), None
    )
    if found and constant_time_compare(account[1], found.user.get_session_auth_hash()):
        request.user = found.user
        return found
    if not request.user.is_authenticated:  # not a member, an old mark: as Django says
        raise Http404
    membership = next(iter(members.filter(club_id=club_id, user_id=request.user.pk)), None)
    if membership is None:
        club = Club.objects.filter(pk=club_id).first()
        if club is not None and join_refused(club=club, user=request.user):
            raise Refusal(
                _("The owner removed you from this club. Ask them to invite you again."),
                status=403,
                back_url=reverse("home"),
                back_label=_("Back to the home page"),
            )
        raise Http404
    return membership


def owner_only(back_url: str, back_label: str) -> Refusal:
    """The refusal of an owner's action to another member (who knows the club: 403)."""
    return Refusal(
        _("Only the club's owner can do this."),
        status=403,
        back_url=back_url,
        back_label=back_label,
    )


def evening_closed(evening: Evening) -> Refusal:
    """The refusal of a change to a closed evening (409: the evening's state is the reason)."""
    return Refusal(
        _("This evening is closed."),
        status=409,
        back_url=reverse("evening", args=[evening.pk]),
        back_label=_("Back to the evening"),
    )


def owner_membership_for(request: HttpRequest, club_id: int) -> Membership:
    """As membership_for, for the owner's actions: other members are refused (403)."""
    membership = membership_for(request, club_id)
    if not membership.is_owner:
        raise owner_only(reverse("club", args=[club_id]), _("Back to the club"))
    return membership


def evening_for(request: HttpRequest, evening_id: int) -> tuple[Evening, Membership]:
    evening = get_object_or_404(Evening.objects.select_related("club"), pk=evening_id)
    return evening, _rights_at(request, evening)


def _rights_at(request: HttpRequest, evening: Evening) -> Membership:
    """The session's membership of the evening's club, or its table link's rights."""
    try:
        return membership_for(request, evening.club_id)
    except Http404:
        grant = table_grant_for(request, evening)
        if grant is None:
            closed = closed_table_for(request, evening)
            if closed is not None:
                raise TableRoundClosed(closed) from None
            raise
        return grant


def _session_account(request: HttpRequest) -> tuple[object, str] | None:
    """The session's account id and mark as ``auth.get_user`` reads them, or None."""
    session = request.session
    backend = session.get(BACKEND_SESSION_KEY)
    mark = session.get(HASH_SESSION_KEY)
    if backend != MODEL_BACKEND or backend not in settings.AUTHENTICATION_BACKENDS or not mark:
        return None
    try:
        return _USER._meta.pk.to_python(session[SESSION_KEY]), mark
    except (KeyError, ValidationError):
        return None


def table_grant_for(request: HttpRequest, evening: Evening) -> Membership | None:
    """A member's rights (never an owner's) on a tournament table's evening, for this
    session, if it opened the table's link, in the views the table needs, while the round
    is open; else None. The membership is not saved: it names no one."""
    token = _table_token(request, evening)
    if not token or evening.is_closed:
        return None
    tables = TournamentTable.objects.filter(evening_id=evening.pk, token=token)
    if not tables.filter(round__closed_at=None).exists():
        return None
    return Membership(club=evening.club, role=Membership.Role.MEMBER)


def closed_table_for(request: HttpRequest, evening: Evening) -> TournamentTable | None:
    """The table this session scored at through its link, in the views the link opens,
    when its round or its evening has closed since; else None."""
    token = _table_token(request, evening)
    if not token:
        return None
    table = (
        TournamentTable.objects.select_related("round__tournament", "game")
        .filter(evening_id=evening.pk, token=token)
        .first()
    )
    if table is None or not (table.round.is_closed or evening.is_closed):
        return None
    return table


def _table_token(request: HttpRequest, evening: Evening) -> str | None:
    """The token of the evening's table this session opened, in a view the link opens."""
    match = request.resolver_match
    if match is None or match.url_name not in TABLE_GRANT_VIEWS:
        return None
    return (request.session.get(TABLE_GRANTS) or {}).get(str(evening.pk))


def table_grant(request: HttpRequest, table: TournamentTable) -> None:
    """Let this session score at the table (see ``table_grant_for``)."""
    grants = dict(request.session.get(TABLE_GRANTS) or {})
    grants[str(table.evening_id)] = table.token
    request.session[TABLE_GRANTS] = grants


def queue_owner(request: HttpRequest) -> int | str | None:
    """Whose deals kept offline on this phone this session may send: the signed-in account
    (its id), or, signed out, the tournament tables whose links it opened (a name drawn from
    their tokens, never the tokens themselves); None for anybody else."""
    if request.user.is_authenticated:
        return request.user.pk
    tokens = sorted((request.session.get(TABLE_GRANTS) or {}).values())
    if not tokens:
        return None
    return "table-" + hashlib.sha256("\n".join(tokens).encode()).hexdigest()[:16]


def game_for(request: HttpRequest, evening_id: int, game_id: int) -> tuple[Game, Membership]:
    """The evening's game with its evening and club (one query), and the session's rights."""
    games = Game.objects.select_related("evening__club")
    game = get_object_or_404(games, pk=game_id, evening_id=evening_id)
    return game, _rights_at(request, game.evening)


def deal_for(request: HttpRequest, evening_id: int, deal_id: int) -> tuple[Deal, Membership]:
    """The evening's deal with its game, evening and club (one query), and the rights."""
    deals = Deal.objects.select_related("game__evening__club")
    deal = get_object_or_404(deals, pk=deal_id, game__evening_id=evening_id)
    return deal, _rights_at(request, deal.game.evening)
