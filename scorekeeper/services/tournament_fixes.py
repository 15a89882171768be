"""The organiser's after-the-fact changes to a tournament: correcting or adding a table's
deal, also once its round is closed (the evening opened inside the transaction only, the
deal's history kept); deals past the plan; and a bounded search for a better seating.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction
from django.db.models import F
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
from scorekeeper.services.common import DealInputs, ServiceError, evening_touch, lock_evenings
from scorekeeper.services.costly import Kind, charge_alone
from scorekeeper.services.deals import deal_record, deal_update
from scorekeeper.services.tournaments import _bump as _bump_tournament
from scorekeeper.services.tournaments import _present_ids, _seated_rounds, default_plan

# What one search may cost, within one request: at most this many swaps weighed (about
# 0.6 s on a busy 2-core machine; 2,000,000 found no fewer repeats in 4 s) and this many
# seconds, whichever comes first.
SEARCH_WORK = 500_000
SEARCH_SECONDS = 1.0


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
    with _opened(table):
        return deal_update(deal=deal, inputs=inputs, dealer=dealer, changed_by=changed_by)


@transaction.atomic
def tournament_deal_add(
    *,
    table: TournamentTable,
    inputs: DealInputs,
    dealer: Player | None = None,
    added_by: User,
    case_number: int | None = None,
) -> Deal:
    """The organiser adds a deal the table could not enter (its round closed first, say):
    the table's next deal, recorded in its history as added by ``added_by``, whether or not
    the round is closed, past the planned deals too (the organiser's own decision)."""
    with _opened(table):
        return deal_record(
            game=table.game,
            inputs=inputs,
            dealer=dealer,
            created_by=added_by,
            past_plan=True,
            case_number=case_number,
        )


@contextmanager
def _opened(table: TournamentTable) -> Iterator[None]:
    """The table's evening open for the block, inside the caller's transaction, closed again
    at the same moment as before; the tournament's version raised."""
    # The tournament (its version), then the table's evening, then its game (the deal's save).
    tournament = Tournament.objects.select_for_update().get(pk=table.round.tournament_id)
    evening = Evening.objects.select_for_update().get(pk=table.evening_id)
    closed_at = evening.closed_at
    if closed_at is not None:
        Evening.objects.filter(pk=evening.pk).update(closed_at=None)
    yield
    if closed_at is not None:
        Evening.objects.filter(pk=evening.pk).update(closed_at=closed_at)
        evening_touch(evening)
    _bump_tournament(tournament)


@transaction.atomic
def table_allow_more(*, table: TournamentTable) -> TournamentTable:
    """The organiser lets a table of the round in play enter one deal past the plan."""
    tournament = Tournament.objects.select_for_update().get(pk=table.round.tournament_id)
    table = (
        TournamentTable.objects.select_for_update(of=("self",))
        .select_related("round")
        .get(pk=table.pk)
    )
    if table.round.is_closed:
        raise ServiceError(_("This round is closed: add the deal from the table's deals."))
    TournamentTable.objects.filter(pk=table.pk).update(extra_deals=F("extra_deals") + 1)
    table.refresh_from_db(fields=["extra_deals"])
    _bump_tournament(tournament)
    return table


def round_reseatable(tournament_round: TournamentRound | None) -> bool:
    """The round in play may be seated again while none of its tables has a deal."""
    return (
        tournament_round is not None
        and not tournament_round.is_closed
        and not Deal.objects.filter(game__tournament_table__round=tournament_round).exists()
    )


def tournament_schedule_search(*, tournament: Tournament, by: User) -> tuple[int | None, int]:
    """Search again for the rounds still to seat (and the round in play while it has no
    deal); keep the new plan when it repeats fewer meetings. Returns the repeated meetings
    of the plan before the search (None when it no longer fitted who is present) and of the
    plan kept. Past ``by``'s hourly limit: TooCostly, nothing searched."""
    charge_alone(user=by, kind=Kind.SEATING_SEARCH)
    return _schedule_search(tournament)


@transaction.atomic
def _schedule_search(tournament: Tournament) -> tuple[int | None, int]:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.state == Tournament.State.FINISHED:
        raise ServiceError(_("This tournament is over."))
    if tournament.kind == Tournament.Kind.DUPLICATE:
        raise ServiceError(_("A duplicate tournament follows its movement."))
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
    deadline = time.monotonic() + SEARCH_SECONDS  # the baseline below and the search share it
    if not rounds and not plan.get("rounds"):  # the plan the first round would follow
        plan = {
            "players": present,
            "rounds": [
                [list(table.players) for table in tables]
                for tables in default_plan(tournament, present, seconds=SEARCH_SECONDS / 2)
            ],
        }
    old = [[list(table) for table in tables] for tables in plan.get("rounds") or []]
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
            seconds=max(deadline - time.monotonic(), 0.0),
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
    lock_evenings(table.evening_id for table in current)  # the caller holds the tournament
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
        evening_touch(table.evening)
