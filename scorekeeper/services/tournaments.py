"""Tournaments: registering players, seating each round at its tables, closing rounds.

Each table of a round is an evening with one French Tarot game, started through
``evenings.evening_start``, so that the deal form, the phone flow and the deal history serve
it unchanged; closing a round closes those evenings. Seating comes from
``scoring.seating``: the whole schedule is planned when the first round starts, and a later
round follows the plan while the players present are the planned ones, or is seated from
who met whom so far when someone came or went.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.db.models import Count, F
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from scorekeeper.models import (
    Club,
    Player,
    Tournament,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
    new_share_token,
)
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.inputs import (
    PLACE_MAX,
    clean_date,
    clean_name,
    clean_place,
    clean_tournament_name,
    fitted,
)
from scorekeeper.scoring.seating import Table, meetings, plan_schedule, seat_round, table_sizes
from scorekeeper.services.clubs import player_named
from scorekeeper.services.common import ServiceError, lock_evenings
from scorekeeper.services.duplicate import duplicate_seat
from scorekeeper.services.evenings import evening_close, evening_start

MAX_ROUNDS = 20
MAX_DEALS_PER_ROUND = 40
MAX_GUESTS_AT_ONCE = 60


def _bump(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)


def _check_not_finished(tournament: Tournament) -> None:
    if tournament.state == Tournament.State.FINISHED:
        raise ServiceError(_("This tournament is over."))


@transaction.atomic
def tournament_create(
    *,
    club: Club,
    created_by: User,
    name: str,
    rounds: int,
    deals_per_round: int,
    date: dt.date | None = None,
    place: str = "",
    allow_three: bool = False,
    kind: str = Tournament.Kind.FREE,
    method: str = Tournament.Method.MATCH_POINTS,
) -> Tournament:
    """A tournament of free deals, or of duplicate deals (``kind``) ranked by ``method``."""
    if kind not in Tournament.Kind.values or method not in Tournament.Method.values:
        raise ServiceError(_("Choose a kind of tournament and a method."), "kind")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ServiceError(
            _("Choose between 1 and %(count)s rounds.") % {"count": MAX_ROUNDS}, "rounds"
        )
    if not 1 <= deals_per_round <= MAX_DEALS_PER_ROUND:
        raise ServiceError(
            _("Choose between 1 and %(count)s deals per round.") % {"count": MAX_DEALS_PER_ROUND},
            "deals_per_round",
        )
    return Tournament.objects.create(
        club=club,
        created_by=created_by,
        name=clean_tournament_name(name, "name") if name.strip() else _("Tournament"),
        date=clean_date(date or timezone.localdate(), "date"),
        place=clean_place(place, "place"),
        rounds=rounds,
        deals_per_round=deals_per_round,
        allow_three=allow_three and kind == Tournament.Kind.FREE,
        kind=kind,
        method=method,
    )


def _guest_refusal(tournament: Tournament, player: Player) -> ServiceError:
    if tournament.entrants.filter(player=player, present=True).exists():
        return ServiceError(_("%(name)s is already registered.") % {"name": player}, "guest_name")
    return ServiceError(
        _("%(name)s is already a player of the club: choose them in the list.") % {"name": player},
        "guest_name",
    )


def _guest(tournament: Tournament, guest_name: str) -> Player:
    """A new player of the club for a guest, named by the rules of every name (ScoringError
    if against them). A name the club has is refused; so is one that another registration
    made a player of at the same moment (the database's constraint refuses the second:
    IntegrityError, caught in a savepoint), with the same clear answer."""
    if not guest_name.strip():
        raise ServiceError(_("Give the guest's name."), "guest_name")
    name = clean_name(guest_name, "guest_name")
    club = tournament.club
    existing = player_named(club, name)
    if existing is None:
        try:
            with transaction.atomic():
                return Player.objects.create(club=club, name=name)
        except IntegrityError:
            existing = player_named(club, name)
            if existing is None:  # not a name taken: not this method's to explain
                raise
    raise _guest_refusal(tournament, existing)


@transaction.atomic
def tournament_register(
    *, tournament: Tournament, player: Player | None = None, guest_name: str = ""
) -> TournamentPlayer:
    """Register a club player, or a guest by name (made a player of the club), as present.

    A player registered before and withdrawn is present again.
    """
    _check_not_finished(tournament)
    guest = player is None
    if player is None:
        player = _guest(tournament, guest_name)
    elif player.club_id != tournament.club_id:
        raise ServiceError(_("Every player must belong to the club."), "player")
    entrant, created = TournamentPlayer.objects.get_or_create(
        tournament=tournament, player=player, defaults={"guest": guest}
    )
    if not created:
        if entrant.present:
            raise ServiceError(_("%(name)s is already registered.") % {"name": player}, "player")
        entrant.present = True
        entrant.save(update_fields=["present"])
    _bump(tournament)
    return entrant


@transaction.atomic
def tournament_register_many(
    *, tournament: Tournament, players: Iterable[Player] = (), guest_names: Iterable[str] = ()
) -> list[TournamentPlayer]:
    """Register club players and guests by name at once: all of them, or none (the first
    refusal is raised, its field ``player`` or ``guest_name``)."""
    players, guest_names = list(players), list(guest_names)
    if len(guest_names) > MAX_GUESTS_AT_ONCE:
        raise ServiceError(
            _("At most %(count)s names at once.") % {"count": MAX_GUESTS_AT_ONCE}, "guest_name"
        )
    registered = [tournament_register(tournament=tournament, player=p) for p in players]
    registered += [tournament_register(tournament=tournament, guest_name=n) for n in guest_names]
    return registered


@transaction.atomic
def tournament_withdraw(*, entrant: TournamentPlayer) -> TournamentPlayer:
    """The player leaves before the next round: they are seated no more (their scores stay)."""
    _check_not_finished(entrant.tournament)
    if entrant.present:
        entrant.present = False
        entrant.save(update_fields=["present"])
        _bump(entrant.tournament)
    return entrant


def _seated_rounds(tournament: Tournament) -> list[list[list[int]]]:
    rows = (
        TournamentTable.objects.filter(round__tournament=tournament)
        .values_list("round__number", "game_id", "game__seats__player_id")
        .order_by("round__number", "number", "game__seats__position")
    )
    rounds: dict[int, dict[int, list[int]]] = {}
    for number, game_id, player_id in rows:
        rounds.setdefault(number, {}).setdefault(game_id, []).append(player_id)
    return [list(tables.values()) for _number, tables in sorted(rounds.items())]


def _present_ids(tournament: Tournament) -> list[int]:
    return list(
        tournament.entrants.filter(present=True)
        .order_by(Lower("player__name"), "player_id")
        .values_list("player_id", flat=True)
    )


def default_plan(
    tournament: Tournament, present: list[int], *, seconds: float | None = None
) -> tuple[tuple[Table, ...], ...]:
    """The schedule drawn for these players when the first round starts (within about
    ``seconds`` when given: then it may be another)."""
    return plan_schedule(
        present,
        tournament.rounds,
        seed=tournament.pk,
        allow_three=tournament.allow_three,
        seconds=seconds,
    )


def _seat(tournament: Tournament, number: int, present: list[int]) -> tuple[Table, ...]:
    plan = tournament.schedule or {}
    searched = number == 1 and sorted(plan.get("players") or []) == sorted(present)
    if (number == 1 and not searched) or not plan.get("rounds"):
        rounds = default_plan(tournament, present)
        plan = {
            "players": present,
            "rounds": [[list(table.players) for table in tables] for tables in rounds],
        }
        Tournament.objects.filter(pk=tournament.pk).update(schedule=plan)
        tournament.schedule = plan
        if number == 1:
            return rounds[0]
    met = meetings(_seated_rounds(tournament))  # each pair's tables together so far
    planned: Iterable[Iterable[int]] | None = None
    if sorted(plan["players"]) == sorted(present) and number <= len(plan["rounds"]):
        planned = plan["rounds"][number - 1]
    return seat_round(
        present,
        met,
        seed=tournament.pk * 100 + number,
        allow_three=tournament.allow_three,
        planned=planned,
    )


def table_place(tournament: Tournament, round_number: int, table_number: int) -> str:
    """The place of a table's evening, "name, round n, table t", within the place's 80
    characters: a tournament's name has at most 50 (a longer one, stored before that rule
    or restored from an archive, is shortened here)."""
    values = {"tournament": tournament.name, "round": round_number, "table": table_number}
    text = _("%(tournament)s, round %(round)s, table %(table)s")
    return fitted(text, values, cut="tournament", limit=PLACE_MAX)


@transaction.atomic
def round_start(*, tournament: Tournament, created_by: User) -> TournamentRound:
    """Seat the next round from the schedule and who is present, a table evening each."""
    tournament = Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)
    _check_not_finished(tournament)
    last = tournament.tournament_rounds.order_by("-number").first()
    if last is not None and not last.is_closed:
        raise ServiceError(_("Close round %(number)s first.") % {"number": last.number})
    number = (last.number if last else 0) + 1
    if number > tournament.rounds:
        raise ServiceError(_("Every round has been played."))
    present = _present_ids(tournament)
    try:
        if tournament.kind == Tournament.Kind.DUPLICATE:
            tables = duplicate_seat(tournament, number)
        else:
            table_sizes(len(present), tournament.allow_three)
            tables = _seat(tournament, number, present)
    except ScoringError as error:
        raise ServiceError(
            _("%(count)s players present cannot be seated at tables of 4 and 5.")
            % {"count": len(present)},
            "players",
        ) from error
    players = Player.objects.in_bulk(present)
    tournament_round = TournamentRound.objects.create(tournament=tournament, number=number)
    for table_number, table in enumerate(tables, start=1):
        seated = [players[pk] for pk in table.players]
        evening = evening_start(
            club=tournament.club,
            players=seated,
            first_dealer=players[table.dealer],
            created_by=created_by,
            date=tournament.date,
            place=table_place(tournament, number, table_number),
        )
        TournamentTable.objects.create(
            round=tournament_round,
            number=table_number,
            evening=evening,
            game=evening.games.get(),
        )
    tournament.state = Tournament.State.PLAYING
    tournament.save(update_fields=["state"])
    _bump(tournament)
    return tournament_round


class RoundShort(ServiceError):
    """The round would close with tables short of their planned deals: ``tables`` lists
    them as (table number, deals entered, deals due), by table number."""

    def __init__(self, tables: list[tuple[int, int, int]]) -> None:
        numbers = ", ".join(str(number) for number, _deals, _due in tables)
        super().__init__(
            ngettext(
                "Table %(numbers)s has not entered all its deals.",
                "Tables %(numbers)s have not entered all their deals.",
                len(tables),
            )
            % {"numbers": numbers}
        )
        self.tables = tables


def round_short_tables(tournament_round: TournamentRound) -> list[tuple[int, int, int]]:
    """The round's tables with fewer deals than planned: (number, deals entered, deals due)."""
    deals_per_round = tournament_round.tournament.deals_per_round
    tables = tournament_round.tables.annotate(deal_count=Count("game__deals")).order_by("number")
    return [
        (table.number, table.deal_count, table.deals_due(deals_per_round))
        for table in tables
        if table.deal_count < table.deals_due(deals_per_round)
    ]


@transaction.atomic
def round_close(*, tournament_round: TournamentRound, even_short: bool = False) -> TournamentRound:
    """Close the round: its tables' links stop working and their evenings close. While a
    table is short of its planned deals, RoundShort is raised (nothing closes) unless
    ``even_short`` says the organiser was told and confirmed."""
    # The tournament, then the round, then its tables' evenings in id order.
    tournament = Tournament.objects.select_for_update().get(pk=tournament_round.tournament_id)
    tournament_round = TournamentRound.objects.select_for_update().get(pk=tournament_round.pk)
    if tournament_round.closed_at is None:
        tables = list(tournament_round.tables.select_related("evening"))
        lock_evenings(table.evening_id for table in tables)
        tournament_round.tournament = tournament
        short = round_short_tables(tournament_round)
        if short and not even_short:
            raise RoundShort(short)
        for table in tables:
            evening_close(evening=table.evening)
        tournament_round.closed_at = timezone.now()
        tournament_round.save(update_fields=["closed_at"])
        if tournament_round.number >= tournament.rounds:
            tournament.state = Tournament.State.FINISHED
            tournament.save(update_fields=["state"])
        _bump(tournament)
    return tournament_round


@transaction.atomic
def tournament_public_link_create(*, tournament: Tournament) -> Tournament:
    """A new public ranking link; the one before, if any, no longer works."""
    tournament.public_token = new_share_token()
    tournament.save(update_fields=["public_token"])
    return tournament


@transaction.atomic
def tournament_public_link_revoke(*, tournament: Tournament) -> Tournament:
    """The public ranking link no longer works (404), during the tournament or after it."""
    tournament.public_token = None
    tournament.save(update_fields=["public_token"])
    return tournament
