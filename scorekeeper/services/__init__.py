"""Every database write of the main app: keyword-only functions, each in a transaction.

Views parse input and call one of these; scores come only from ``scorekeeper.scoring``.
One module per entity; callers use this package (``services.deal_record``).

Locks: every service takes its row locks (``select_for_update``, or an UPDATE of a row that
others lock) in this one order, so that two writers never wait for each other in a circle
(PostgreSQL's "deadlock detected"):

    account (User) → club → its links and invitations → tournament → round → evening
    → game → deal (a deleted deal) → score rows → an account's counter (``costly``: an
    advisory lock, taken last)

A service locks only downwards: one that needs a game's lock takes its evening's first
(``common.lock_game``; a deal's save raises the evening's version, so it needs both), the
rescore locks the evening and then its games. Several rows of one kind are locked in id order
(``common.lock_evenings``). A ``select_for_update`` joined to another table locks only its own
rows (``of=("self",)``): one statement locking two kinds has no order of its own.
"""

from __future__ import annotations

from scorekeeper.services.archive_waiting import (
    ArchiveGone,
    UploadsLimited,
    archive_restore,
    archive_upload_count,
    archive_wait,
)
from scorekeeper.services.archives import archive_import
from scorekeeper.services.clubs import (
    club_create,
    club_rename,
    club_set_evening_points,
    invitation_create,
    invitation_withdraw,
    invitations_accept,
    member_leave,
    member_remove,
    ownership_transfer,
    player_add,
    player_rename,
    player_retire,
    player_update,
)
from scorekeeper.services.common import ServiceError
from scorekeeper.services.deal_deletions import deal_delete, deal_restore, deals_restore_all
from scorekeeper.services.deals import (
    DealAlreadyRestored,
    DealGone,
    DealNumberTaken,
    deal_record,
    deal_update,
)
from scorekeeper.services.duplicate import movement_draw, movement_of, table_cases
from scorekeeper.services.evenings import (
    dealer_after,
    default_sitting_out,
    evening_close,
    evening_reopen,
    evening_start,
    game_start,
    next_dealer,
    present_players,
    seat_join,
    seat_leave,
    share_link_create,
    share_link_revoke,
)
from scorekeeper.services.house_rules import club_rules_set, evening_rescore
from scorekeeper.services.imports import evenings_import
from scorekeeper.services.joins import (
    invitation_mail_send,
    join_link_create,
    join_link_revoke,
    join_with_link,
)
from scorekeeper.services.seasons import season_create, season_ensure_for, season_for_date
from scorekeeper.services.tournament_fixes import (
    table_allow_more,
    tournament_deal_add,
    tournament_deal_correct,
    tournament_schedule_search,
)
from scorekeeper.services.tournaments import (
    RoundShort,
    round_close,
    round_start,
    tournament_create,
    tournament_public_link_create,
    tournament_public_link_revoke,
    tournament_register,
    tournament_register_many,
    tournament_withdraw,
)
