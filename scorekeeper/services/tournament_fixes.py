"""The organiser's after-the-fact changes to a tournament: correcting a table's deal, also
once its round is closed, and searching again for a seating with fewer repeated meetings.

A closed table evening stays closed for everyone: the correction opens it inside its own
transaction only, saves the deal through ``deals.deal_update`` (so the deal's history
records it), and closes it again at the same time as before. The search runs
``scoring.seating.plan_following`` with another seed and more work, and keeps the better of
the two plans; the round in play is seated again only while none of its deals is entered.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from scorekeeper.models import (
    Deal,
    Evening,
    Player,
    Seat,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.seating import meetings, plan_following, repeated_meetings
from scorekeeper.services.common import DealInputs, ServiceError
from scorekeeper.services.deals import deal_update
from scorekeeper.services.tournaments import _bump as _bump_tournament
from scorekeeper.services.tournaments import _present_ids, _seated_rounds, default_plan

# Each search weighs at most this many swaps (about 3 s on a slow machine): one request.
SEARCH_WORK = 2_000_000


@transaction.atomic
def tournament_deal_correct(
    *,
    table: TournamentTable,
    deal: Deal,
    inputs: DealInputs,
    dealer: Player | None = None,
    changed_by: User | None = None,
) -> Deal:
    """Correct a deal of a tournament table, whether or not its round is closed."""
    if deal.game_id != table.game_id:
        raise ServiceError(_("This deal is not one of this table's."))
    evening = Evening.objects.select_for_update().get(pk=table.evening_id)
    closed_at = evening.closed_at
    if closed_at is not None:
        Evening.objects.filter(pk=evening.pk).update(closed_at=None)
    deal = deal_update(deal=deal, inputs=inputs, dealer=dealer, changed_by=changed_by)
    if closed_at is not None:
        Evening.objects.filter(pk=evening.pk).update(closed_at=closed_at)
        evening.touch()
    _bump_tournament(table.round.tournament)
    return deal


def _plan_rounds(plan: dict) -> list[list[list[int]]]:
    return [[list(table) for table in tables] for tables in plan.get("rounds") or []]


def round_reseatable(tournament_round: TournamentRound | None) -> bool:
    """The round in play may be seated again while none of its tables has a deal."""
    return (
        tournament_round is not None
        and not tournament_round.is_closed
        and not Deal.objects.filter(game__tournament_table__round=tournament_round).exists()
    )


@transaction.atomic
def tournament_schedule_search(*, tournament: Tournament) -> tuple[int | None, int]:
    """Search again for the rounds still to seat (and the round in play while it has no
    deal); keep the new plan when it repeats fewer meetings. Returns the repeated meetings
    of the plan before the search (None when it no longer fitted who is present) and of the
    plan kept."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.state == Tournament.State.FINISHED:
        raise ServiceError(_("This tournament is over."))
    rounds = list(tournament.tournament_rounds.order_by("number"))
    current = rounds[-1] if rounds and not rounds[-1].is_closed else None
    seated = _seated_rounds(tournament)
    present = _present_ids(tournament)
    reseat = round_reseatable(current) and sorted(p for t in seated[-1] for p in t) == sorted(
        present
    )
    fixed = seated[:-1] if reseat else seated
    left = tournament.rounds - len(fixed)
    if left < 1:
        raise ServiceError(_("Every round has been seated."))
    plan = tournament.schedule or {}
    if not rounds and not plan.get("rounds"):  # the plan the first round would follow
        plan = {
            "players": present,
            "rounds": [
                [list(table.players) for table in tables]
                for tables in default_plan(tournament, present)
            ],
        }
    old = _plan_rounds(plan)
    if sorted(plan.get("players") or []) == sorted(present) and len(old) == tournament.rounds:
        before = repeated_meetings(fixed + old[len(fixed) :])
    else:
        before = None  # the plan no longer fits who is present: any new plan is better
    searches = int(plan.get("searches") or 0) + 1
    try:
        found = plan_following(
            present,
            left,
            meetings(fixed),
            seed=tournament.pk * 1000 + searches,
            allow_three=tournament.allow_three,
            work=SEARCH_WORK,
        )
    except ScoringError as error:
        raise ServiceError(
            _("%(count)s players present cannot be seated at tables of 4 and 5.")
            % {"count": len(present)}
        ) from error
    new = [[list(table.players) for table in tables] for tables in found]
    after = repeated_meetings(fixed + new)
    kept = before is not None and before <= after
    if kept:
        plan = {**plan, "searches": searches}
    else:
        plan = {"players": present, "rounds": fixed + new, "searches": searches}
        if reseat:
            assert current is not None
            _reseat(current, found[0])
    Tournament.objects.filter(pk=tournament.pk).update(schedule=plan)
    _bump_tournament(tournament)
    return before, (before if kept and before is not None else after)


def _reseat(tournament_round: TournamentRound, tables: tuple) -> None:
    """Seat the round's tables again (no deal entered yet): same tables, new players."""
    current = list(tournament_round.tables.select_related("game", "evening").order_by("number"))
    by_size = sorted(tables, key=len)
    if sorted(len(t) for t in by_size) != sorted(
        table.game.seats.count() for table in current
    ):  # who is present changed: the tables would not be the same
        raise ServiceError(_("Players came or went since this round was seated."))
    players = Player.objects.in_bulk([p for t in tables for p in t.players])
    free = list(by_size)
    for table in sorted(current, key=lambda t: t.game.seats.count()):
        size = table.game.seats.count()
        seating = next(t for t in free if len(t) == size)
        free.remove(seating)
        Seat.objects.filter(game=table.game).delete()
        Seat.objects.bulk_create(
            Seat(game=table.game, player=players[pk], position=position)
            for position, pk in enumerate(seating.players, start=1)
        )
        table.game.first_dealer = players[seating.dealer]
        table.game.save(update_fields=["first_dealer"])
        table.evening.touch()
