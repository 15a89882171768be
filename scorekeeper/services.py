"""Every database write of the main app: keyword-only functions, each in a transaction.

Views parse input and call one of these; scores come only from ``scorekeeper.scoring``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User, normalize_email_address
from scorekeeper.models import (
    Club,
    Deal,
    DealScore,
    DeletedDeal,
    Evening,
    Game,
    Invitation,
    Membership,
    Player,
    Season,
    Seat,
    new_share_token,
)
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import (
    ESCOPETTE_PLAYERS,
    EscopetteDeal,
    escopette_game,
    score_escopette_deal,
)
from scorekeeper.scoring.sheet import AnyDeal, Sheet, map_players
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal, score_deal

DealInputs = TarotDeal[int] | PassedDeal[int] | EscopetteDeal[int]


class ServiceError(Exception):
    """An action the rules of the app refuse; ``field`` names the input it concerns."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


# --- Clubs, members and invitations -------------------------------------------------


@transaction.atomic
def club_create(*, name: str, owner: User) -> Club:
    club = Club.objects.create(name=name.strip())
    Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    return club


@transaction.atomic
def club_rename(*, club: Club, name: str) -> Club:
    club.name = name.strip()
    club.save(update_fields=["name"])
    return club


@transaction.atomic
def invitation_create(*, club: Club, email: str, invited_by: User) -> Invitation:
    email = normalize_email_address(email)
    if club.memberships.filter(user__email=email).exists():
        raise ServiceError(_("%(email)s is already a member.") % {"email": email}, "email")
    invitation, _created = Invitation.objects.get_or_create(
        club=club, email=email, defaults={"invited_by": invited_by}
    )
    return invitation


@transaction.atomic
def invitation_withdraw(*, invitation: Invitation) -> None:
    invitation.delete()


@transaction.atomic
def invitations_accept(*, user: User) -> list[Membership]:
    """Turn the invitations waiting for this user's address into memberships.

    Called by the sign-in flow each time someone signs in.
    """
    memberships = []
    for invitation in Invitation.objects.select_for_update().filter(email=user.email):
        membership, _created = Membership.objects.get_or_create(
            club=invitation.club, user=user, defaults={"role": Membership.Role.MEMBER}
        )
        memberships.append(membership)
        invitation.delete()
    return memberships


@transaction.atomic
def member_remove(*, membership: Membership) -> None:
    if membership.is_owner:
        raise ServiceError(_("The owner cannot be removed; hand over ownership first."))
    # The player keeps its name and scores; it is simply no longer that person's account.
    Player.objects.filter(club_id=membership.club_id, user_id=membership.user_id).update(user=None)
    membership.delete()


@transaction.atomic
def ownership_transfer(*, club: Club, to: Membership) -> None:
    if to.club_id != club.pk:
        raise ServiceError(_("That person is not a member of this club."))
    if to.is_owner:
        return
    club.memberships.filter(role=Membership.Role.OWNER).update(role=Membership.Role.MEMBER)
    to.role = Membership.Role.OWNER
    to.save(update_fields=["role"])


# --- Players --------------------------------------------------------------------------


def _check_player_name(club: Club, name: str, exclude: Player | None = None) -> str:
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("A player needs a name."), "name")
    # Compared in Python: SQLite's LOWER() folds ASCII letters only (Zoé, ZOÉ).
    others = club.players.exclude(pk=exclude.pk) if exclude is not None else club.players.all()
    folded = name.casefold()
    if any(other.casefold() == folded for other in others.values_list("name", flat=True)):
        raise ServiceError(_("%(name)s is already a player of this club.") % {"name": name}, "name")
    return name


@transaction.atomic
def player_add(*, club: Club, name: str, user: User | None = None) -> Player:
    return Player.objects.create(club=club, name=_check_player_name(club, name), user=user)


@transaction.atomic
def player_rename(*, player: Player, name: str) -> Player:
    player.name = _check_player_name(player.club, name, exclude=player)
    player.save(update_fields=["name"])
    _bump_evenings_of(player)
    return player


@transaction.atomic
def player_retire(*, player: Player, retired: bool = True) -> Player:
    player.retired = retired
    player.save(update_fields=["retired"])
    return player


# --- Evenings and games -----------------------------------------------------------------


def _bump(evening: Evening) -> None:
    Evening.objects.filter(pk=evening.pk).update(version=F("version") + 1)


def _bump_evenings_of(player: Player) -> None:
    """A renamed player: the sheets that show the name change too (and watchers see it)."""
    evenings = Evening.objects.filter(games__seats__player=player).values("pk")
    Evening.objects.filter(pk__in=evenings).update(version=F("version") + 1)


def _check_open(evening: Evening) -> None:
    if evening.closed_at is not None:
        raise ServiceError(_("This evening is closed."))


def _check_roster(
    *, club: Club, kind: str, players: Sequence[Player], first_dealer: Player
) -> None:
    if any(player.club_id != club.pk for player in players):
        raise ServiceError(_("Every player must belong to the club."), "players")
    if len({player.pk for player in players}) != len(players):
        raise ServiceError(_("A player can sit only once."), "players")
    if kind == Game.Kind.ESCOPETTE:
        if len(players) != ESCOPETTE_PLAYERS:
            raise ServiceError(_("L'escopette is played by exactly 4 players."), "players")
    elif not 3 <= len(players) <= 6:
        raise ServiceError(_("French Tarot needs 3 to 6 players present."), "players")
    if first_dealer not in players:
        raise ServiceError(_("The first dealer must be one of the players."), "first_dealer")


@transaction.atomic
def game_start(
    *,
    evening: Evening,
    players: Sequence[Player],
    first_dealer: Player,
    kind: str = Game.Kind.TAROT,
    five_mode: str = Game.FiveMode.FIVE,
    target: int | None = None,
) -> Game:
    _check_open(evening)
    _check_roster(club=evening.club, kind=kind, players=players, first_dealer=first_dealer)
    if kind == Game.Kind.ESCOPETTE and target not in (50, 100):
        raise ServiceError(_("Choose a target of 50 or 100."), "target")
    number = (evening.games.aggregate(last=Max("number"))["last"] or 0) + 1
    game = Game.objects.create(
        evening=evening,
        number=number,
        kind=kind,
        target=target if kind == Game.Kind.ESCOPETTE else None,
        five_mode=five_mode,
        first_dealer=first_dealer,
    )
    Seat.objects.bulk_create(
        Seat(game=game, player=player, position=position)
        for position, player in enumerate(players, start=1)
    )
    _bump(evening)
    return game


@transaction.atomic
def evening_start(
    *,
    club: Club,
    players: Sequence[Player],
    first_dealer: Player,
    created_by: User,
    date: dt.date | None = None,
    place: str = "",
    kind: str = Game.Kind.TAROT,
    five_mode: str = Game.FiveMode.FIVE,
    target: int | None = None,
) -> Evening:
    _check_roster(club=club, kind=kind, players=players, first_dealer=first_dealer)
    evening = Evening.objects.create(
        club=club,
        date=date or timezone.localdate(),
        place=place.strip(),
        created_by=created_by,
    )
    season_ensure_for(club=club, date=evening.date)
    game_start(
        evening=evening,
        players=players,
        first_dealer=first_dealer,
        kind=kind,
        five_mode=five_mode,
        target=target,
    )
    return evening


@transaction.atomic
def evening_update(*, evening: Evening, date: dt.date, place: str) -> Evening:
    evening.date = date
    evening.place = place.strip()
    evening.save(update_fields=["date", "place"])
    season_ensure_for(club=evening.club, date=date)
    _bump(evening)
    return evening


@transaction.atomic
def evening_close(*, evening: Evening) -> Evening:
    if evening.closed_at is None:
        evening.closed_at = timezone.now()
        evening.save(update_fields=["closed_at"])
        _bump(evening)
    return evening


@transaction.atomic
def evening_reopen(*, evening: Evening) -> Evening:
    if evening.closed_at is not None:
        evening.closed_at = None
        evening.save(update_fields=["closed_at"])
        _bump(evening)
    return evening


@transaction.atomic
def share_link_create(*, evening: Evening) -> Evening:
    evening.share_token = new_share_token()
    evening.save(update_fields=["share_token"])
    return evening


@transaction.atomic
def share_link_revoke(*, evening: Evening) -> Evening:
    evening.share_token = None
    evening.save(update_fields=["share_token"])
    return evening


@transaction.atomic
def seat_join(*, game: Game, player: Player, after: Player | None = None) -> Seat:
    """Seat a player (again) at the table, after ``after`` in seat order or at the end."""
    game = Game.objects.select_for_update().select_related("evening__club").get(pk=game.pk)
    _check_open(game.evening)
    if player.club_id != game.evening.club_id:
        raise ServiceError(_("Every player must belong to the club."), "player")
    seats = list(game.seats.all())
    present = [seat for seat in seats if seat.present]
    limit = ESCOPETTE_PLAYERS if game.kind == Game.Kind.ESCOPETTE else 6
    existing = next((seat for seat in seats if seat.player_id == player.pk), None)
    if existing is not None and existing.present:
        raise ServiceError(_("%(name)s is already at the table.") % {"name": player}, "player")
    if len(present) >= limit:
        raise ServiceError(_("The table is full."), "player")
    if existing is not None:
        existing.present = True
        existing.save(update_fields=["present"])
        seat = existing
    else:
        position = len(seats) + 1
        if after is not None:
            anchor = next((seat for seat in seats if seat.player_id == after.pk), None)
            if anchor is not None:
                position = anchor.position + 1
                # Make room: move later seats one place on, highest first.
                for later in sorted(seats, key=lambda s: -s.position):
                    if later.position >= position:
                        Seat.objects.filter(pk=later.pk).update(position=later.position + 1)
        seat = Seat.objects.create(game=game, player=player, position=position)
    _bump(game.evening)
    return seat


@transaction.atomic
def seat_leave(*, game: Game, player: Player) -> None:
    game = Game.objects.select_for_update().select_related("evening").get(pk=game.pk)
    _check_open(game.evening)
    present = list(game.seats.filter(present=True))
    seat = next((seat for seat in present if seat.player_id == player.pk), None)
    if seat is None:
        raise ServiceError(_("%(name)s is not at the table.") % {"name": player}, "player")
    minimum = ESCOPETTE_PLAYERS if game.kind == Game.Kind.ESCOPETTE else 3
    if len(present) - 1 < minimum:
        raise ServiceError(_("Too few players would remain at the table."), "player")
    seat.present = False
    seat.save(update_fields=["present"])
    _bump(game.evening)


# --- The table: who deals, who sits out --------------------------------------------------


def present_players(game: Game) -> list[Player]:
    """The players at the table now, in seat order."""
    return [seat.player for seat in game.seats.filter(present=True).select_related("player")]


def next_dealer(game: Game, present: Sequence[Player] | None = None) -> Player:
    """Who deals next: the first dealer, then the next player present in seat order."""
    present = list(present if present is not None else present_players(game))
    positions = dict(game.seats.values_list("player_id", "position"))
    last_dealer = game.deals.order_by("-number").values_list("dealer_id", flat=True).first()
    return dealer_after(game, present, positions, last_dealer)


def dealer_after(
    game: Game, present: Sequence[Player], positions: dict[int, int], last_dealer: int | None
) -> Player:
    """The player present after ``last_dealer`` in seat order (the first dealer to begin)."""
    if last_dealer is None:
        start, inclusive = positions.get(game.first_dealer_id, 0), True
    else:
        start, inclusive = positions.get(last_dealer, 0), False
    for player in present:
        position = positions[player.pk]
        if position > start or (inclusive and position == start):
            return player
    return present[0]


def default_sitting_out(game: Game, present: Sequence[Player], dealer: Player) -> list[Player]:
    """With 6 at the table (or 5 playing the 4-player game) the dealer sits out."""
    if game.kind == Game.Kind.TAROT and (
        len(present) == 6 or (len(present) == 5 and game.five_mode == Game.FiveMode.FOUR)
    ):
        return [dealer]
    return []


# --- Deals ---------------------------------------------------------------------------------


def _escopette_order(game: Game) -> list[int]:
    return [seat.player_id for seat in game.seats.filter(present=True).order_by("position")]


def _score(game: Game, inputs: DealInputs) -> dict[int, int]:
    """Score one deal through the scoring service; raises ScoringError on bad input."""
    if game.kind == Game.Kind.ESCOPETTE:
        if not isinstance(inputs, EscopetteDeal):
            raise ServiceError(_("This game is L'escopette."))
        return score_escopette_deal(_escopette_order(game), inputs)
    if isinstance(inputs, EscopetteDeal):
        raise ServiceError(_("This game is French Tarot."))
    return score_deal(inputs)


def _escopette_deals(game: Game) -> list[EscopetteDeal[int]]:
    return [
        EscopetteDeal(stakes={int(k): v for k, v in stakes.items()})
        for stakes in game.deals.order_by("number").values_list("stakes", flat=True)
    ]


def _check_escopette_not_ended(game: Game) -> None:
    """Refuse a deal after the end of a game of L'escopette."""
    result = escopette_game(_escopette_order(game), game.target, _escopette_deals(game))
    if result.winner is not None:
        raise ServiceError(_("This game has ended: no deal can be added."))


def _store(game: Game, deal: Deal, inputs: DealInputs, present: Sequence[int]) -> None:
    scores = _score(game, inputs)
    if isinstance(inputs, TarotDeal):
        deal.passed = False
        deal.taker_id = inputs.taker
        deal.contract = str(inputs.contract)
        deal.bouts = inputs.bouts
        deal.points = Decimal(str(inputs.points))
        deal.partner_id = inputs.partner
        deal.petit_au_bout = inputs.petit_au_bout or ""
        deal.poignees = list(inputs.poignees)
        deal.chelem = inputs.chelem or ""
        deal.stakes = {}
    elif isinstance(inputs, PassedDeal):
        deal.passed = True
        deal.taker_id = deal.partner_id = deal.bouts = deal.points = None
        deal.contract = deal.petit_au_bout = deal.chelem = ""
        deal.poignees = []
        deal.stakes = {}
    else:
        deal.passed = False
        deal.stakes = {str(stake): winner for stake, winner in inputs.stakes.items()}
    deal.updated_at = timezone.now()
    new = deal.pk is None
    deal.save()
    if not new:
        deal.scores.all().delete()
    everyone = list(dict.fromkeys([*present, *scores]))
    DealScore.objects.bulk_create(
        DealScore(deal=deal, player_id=player, seated=player in scores, score=scores.get(player, 0))
        for player in everyone
    )


@transaction.atomic
def deal_record(
    *,
    game: Game,
    inputs: DealInputs,
    dealer: Player | None = None,
    created_by: User | None = None,
    idempotency_key: str | None = None,
) -> Deal:
    """Score and store the next deal of a game. The same idempotency key stores it once."""
    game = Game.objects.select_for_update().select_related("evening").get(pk=game.pk)
    if idempotency_key:
        existing = Deal.objects.filter(idempotency_key=idempotency_key).first()
        if existing is not None:
            return existing
    _check_open(game.evening)
    if game.kind == Game.Kind.ESCOPETTE:
        _check_escopette_not_ended(game)
    present = present_players(game)
    dealer = dealer or next_dealer(game, present)
    number = (game.deals.aggregate(last=Max("number"))["last"] or 0) + 1
    deal = Deal(
        game=game,
        number=number,
        dealer=dealer,
        created_by=created_by,
        idempotency_key=idempotency_key or None,
    )
    # The game's row is locked above: a second save with the same key waits for this one,
    # then finds its deal; numbers are taken one at a time.
    _store(game, deal, inputs, [p.pk for p in present])
    _bump(game.evening)
    return deal


@transaction.atomic
def deal_update(*, deal: Deal, inputs: DealInputs, dealer: Player | None = None) -> Deal:
    game = Game.objects.select_for_update().select_related("evening").get(pk=deal.game_id)
    _check_open(game.evening)
    deal = Deal.objects.select_related("game").get(pk=deal.pk)
    if dealer is not None:
        deal.dealer = dealer
    present = list(deal.scores.values_list("player_id", flat=True))
    _store(game, deal, inputs, present)
    if game.kind == Game.Kind.ESCOPETTE:
        _check_escopette_sequence(game)
    _bump(game.evening)
    return deal


def _check_escopette_sequence(game: Game) -> None:
    """After an edit or an undo, no deal may follow the end of the game."""
    try:
        escopette_game(_escopette_order(game), game.target, _escopette_deals(game))
    except ScoringError as error:
        if error.field != "deal":
            raise
        raise ServiceError(
            _(
                "With this change the game would end after deal %(number)s, "
                "yet later deals follow: delete them first."
            )
            % {"number": (error.deal or 1) - 1}
        ) from None


def _renumber(game: Game, *, from_number: int, shift: int) -> None:
    """Move every deal numbered from ``from_number`` on by ``shift``, keeping numbers unique."""
    later = game.deals.filter(number__gte=from_number)
    later.update(number=-(F("number") + shift))
    game.deals.filter(number__lt=0).update(number=-F("number"))


@transaction.atomic
def deal_delete(*, deal: Deal, deleted_by: User | None = None) -> DeletedDeal:
    game = Game.objects.select_for_update().select_related("evening").get(pk=deal.game_id)
    _check_open(game.evening)
    deal = Deal.objects.get(pk=deal.pk)
    snapshot = _snapshot(deal)
    number = deal.number
    deal.scores.all().delete()
    deal.delete()
    _renumber(game, from_number=number + 1, shift=-1)
    deleted = DeletedDeal.objects.create(
        game=game, number=number, snapshot=snapshot, deleted_by=deleted_by
    )
    _bump(game.evening)
    return deleted


@transaction.atomic
def deal_restore(*, deleted: DeletedDeal) -> Deal:
    """Undo a deletion: the deal comes back at its number, later deals move on by one."""
    game = Game.objects.select_for_update().select_related("evening").get(pk=deleted.game_id)
    _check_open(game.evening)
    snapshot: dict[str, Any] = deleted.snapshot
    last = game.deals.aggregate(last=Max("number"))["last"] or 0
    number = min(deleted.number, last + 1)
    _renumber(game, from_number=number, shift=1)
    deal = Deal(
        game=game,
        number=number,
        dealer_id=snapshot["dealer"],
        created_by_id=snapshot.get("created_by"),
    )
    _store(game, deal, _inputs_from_snapshot(snapshot), snapshot["present"])
    if game.kind == Game.Kind.ESCOPETTE:
        _check_escopette_sequence(game)
    deleted.delete()
    _bump(game.evening)
    return deal


def _snapshot(deal: Deal) -> dict[str, Any]:
    return {
        "dealer": deal.dealer_id,
        "created_by": deal.created_by_id,
        "present": list(deal.scores.values_list("player_id", flat=True)),
        "seated": list(
            deal.scores.filter(seated=True).order_by("pk").values_list("player_id", flat=True)
        ),
        "passed": deal.passed,
        "taker": deal.taker_id,
        "contract": deal.contract,
        "bouts": deal.bouts,
        "points": str(deal.points) if deal.points is not None else None,
        "partner": deal.partner_id,
        "petit_au_bout": deal.petit_au_bout,
        "poignees": list(deal.poignees),
        "chelem": deal.chelem,
        "stakes": dict(deal.stakes),
    }


def _inputs_from_snapshot(snapshot: dict[str, Any]) -> DealInputs:
    if snapshot["stakes"]:
        return EscopetteDeal(stakes={int(k): v for k, v in snapshot["stakes"].items()})
    seated = tuple(snapshot["seated"])
    if snapshot["passed"]:
        return PassedDeal(seated=seated)
    return TarotDeal(
        seated=seated,
        taker=snapshot["taker"],
        contract=snapshot["contract"],
        bouts=snapshot["bouts"],
        points=Decimal(snapshot["points"]),
        partner=snapshot["partner"],
        petit_au_bout=snapshot["petit_au_bout"] or None,
        poignees=tuple(snapshot["poignees"]),
        chelem=snapshot["chelem"] or None,
    )


# --- added for club pages ----------------------------------------------------------------


@transaction.atomic
def player_update(*, player: Player, name: str, user: User | None) -> Player:
    """Rename a player and link it to a member's account (or to none).

    An account can be linked to one player of a club, and only to a member's.
    """
    player = player_rename(player=player, name=name)
    if user is not None:
        if not player.club.memberships.filter(user=user).exists():
            raise ServiceError(_("That person is not a member of this club."), "user")
        linked = player.club.players.filter(user=user).exclude(pk=player.pk).first()
        if linked is not None:
            raise ServiceError(
                _("This account is already linked to %(name)s.") % {"name": linked.name}, "user"
            )
    player.user = user
    player.save(update_fields=["user"])
    return player


# --- Seasons (issue 6) -------------------------------------------------------------------
#
# A season is a club's named date range; an evening belongs to the seasons its date falls in
# (no foreign key). The calendar year is created by itself when its first evening starts.


@transaction.atomic
def season_create(*, club: Club, name: str, start: dt.date, end: dt.date) -> Season:
    name = " ".join(name.split())
    if not name:
        raise ServiceError(_("A season needs a name."), "name")
    if end < start:
        raise ServiceError(_("The last day cannot come before the first day."), "end")
    same = club.seasons.filter(start=start, end=end).first()
    if same is not None:
        raise ServiceError(
            _("The season %(name)s already has these dates.") % {"name": same.name}, "start"
        )
    return Season.objects.create(club=club, name=name, start=start, end=end)


def season_for_date(*, club: Club, date: dt.date) -> Season | None:
    """The season covering the date; of several, the one that started last (the narrowest)."""
    return (
        Season.objects.filter(club=club, start__lte=date, end__gte=date)
        .order_by("-start", "end", "pk")
        .first()
    )


def season_ensure_for(*, club: Club, date: dt.date) -> Season:
    """The season covering the date, creating the calendar year's when none does."""
    season = season_for_date(club=club, date=date)
    if season is not None:
        return season
    start, end = dt.date(date.year, 1, 1), dt.date(date.year, 12, 31)
    try:
        with transaction.atomic():
            return Season.objects.create(club=club, name=str(date.year), start=start, end=end)
    except IntegrityError:  # created at the same moment by another request
        return Season.objects.get(club=club, start=start, end=end)


def _import_player(club: Club, name: str) -> Player:
    """The club's player of that name (any case), created when missing."""
    name = " ".join(name.split())
    if len(name) > Player._meta.get_field("name").max_length:
        raise ScoringError("players", f"{name} is longer than 40 characters")
    player = club.players.filter(name__iexact=name).first()
    return player if player is not None else Player.objects.create(club=club, name=name)


def _import_inputs(deal: AnyDeal, ids: dict[str, int]) -> DealInputs:
    """A sheet's deal (players by name) as the scoring service's deal (players by id)."""
    return map_players(deal, ids.__getitem__)


@transaction.atomic
def evening_import(
    *,
    club: Club,
    sheet: Sheet,
    created_by: User | None,
    date: dt.date | None = None,
    place: str = "",
) -> Evening:
    """A deal sheet as a new evening of the club: all of it, or nothing (a ScoringError).

    Players are matched by name, ignoring case, and created when missing; the sheet's order is
    the seat order and its first player the first dealer. The sheet does not carry dealers:
    the deal goes round from there, except that a lone player sitting out is the dealer.
    Every deal is scored again through ``deal_record``; errors read as ``score_deals``'s.
    """
    players: list[Player] = []
    for name in sheet.players:
        player = _import_player(club, name)
        if player in players:
            other = sheet.players[players.index(player)]
            raise ScoringError("players", f"{other} and {name} are the same player")
        players.append(player)
    kind = Game.Kind.ESCOPETTE if sheet.game == "escopette" else Game.Kind.TAROT
    try:
        evening = evening_start(
            club=club,
            players=players,
            first_dealer=players[0],
            created_by=created_by,  # type: ignore[arg-type]
            date=date,
            place=place,
            kind=kind,
            target=sheet.target,
        )
    except ServiceError as error:
        raise ScoringError(error.field or "sheet", error.message) from None
    game = evening.games.get()
    ids = {name: player.pk for name, player in zip(sheet.players, players, strict=True)}
    by_name = dict(zip(sheet.players, players, strict=True))
    for number, deal in enumerate(sheet.deals, start=1):
        dealer = None
        if isinstance(deal, TarotDeal | PassedDeal):
            away = [name for name in sheet.players if name not in deal.seated]
            if len(away) == 1:
                dealer = by_name[away[0]]
        try:
            deal_record(
                game=game, inputs=_import_inputs(deal, ids), dealer=dealer, created_by=created_by
            )
        except ScoringError as error:
            raise error.with_deal(number) from None
        except ServiceError as error:
            raise ScoringError(error.field or "deal", error.message, number) from None
    return evening
