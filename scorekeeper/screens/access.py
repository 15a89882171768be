"""Who may see what. Everyone who is not a member of a club gets 404 for all of it."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from scorekeeper.models import Club, Deal, Evening, Game, Membership


def membership_for(request: HttpRequest, club_id: int) -> Membership:
    """The signed-in person's membership of the club, or 404 (nothing says the club exists)."""
    if not request.user.is_authenticated:
        raise Http404
    membership = (
        Membership.objects.select_related("club")
        .filter(club_id=club_id, user_id=request.user.pk)
        .first()
    )
    if membership is None:
        raise Http404
    return membership


def owner_membership_for(request: HttpRequest, club_id: int) -> Membership:
    """As membership_for, for the owner's actions: other members get 404 too."""
    membership = membership_for(request, club_id)
    if not membership.is_owner:
        raise Http404
    return membership


def club_for(request: HttpRequest, club_id: int) -> Club:
    return membership_for(request, club_id).club


def evening_for(request: HttpRequest, evening_id: int) -> tuple[Evening, Membership]:
    evening = Evening.objects.select_related("club").filter(pk=evening_id).first()
    if evening is None:
        raise Http404
    return evening, membership_for(request, evening.club_id)


def game_for(request: HttpRequest, evening_id: int, game_id: int) -> tuple[Game, Membership]:
    evening, membership = evening_for(request, evening_id)
    game = Game.objects.select_related("evening__club").filter(pk=game_id, evening=evening).first()
    if game is None:
        raise Http404
    return game, membership


def deal_for(request: HttpRequest, evening_id: int, deal_id: int) -> tuple[Deal, Membership]:
    evening, membership = evening_for(request, evening_id)
    deal = (
        Deal.objects.select_related("game__evening__club")
        .filter(pk=deal_id, game__evening=evening)
        .first()
    )
    if deal is None:
        raise Http404
    return deal, membership
