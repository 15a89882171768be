"""Every database write of the main app: keyword-only functions, each in a transaction.

Views parse input and call one of these; scores come only from ``scorekeeper.scoring``.
One module per entity; callers use this package (``services.deal_record``).
"""

from __future__ import annotations

from scorekeeper.services.archive_waiting import (
    ArchiveGone,
    Restored,
    UploadsLimited,
    archive_restore,
    archive_upload_count,
    archive_wait,
    archive_waiting_cleanup,
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
from scorekeeper.services.common import (
    DealInputs,
    ServiceError,
)
from scorekeeper.services.deal_deletions import deal_delete, deal_restore, deals_restore_all
from scorekeeper.services.deals import (
    DealAlreadyRestored,
    DealGone,
    DealNumberTaken,
    deal_record,
    deal_update,
)
from scorekeeper.services.evenings import (
    dealer_after,
    default_sitting_out,
    evening_close,
    evening_reopen,
    evening_start,
    evening_update,
    game_start,
    next_dealer,
    present_players,
    seat_join,
    seat_leave,
    share_link_create,
    share_link_revoke,
)
from scorekeeper.services.house_rules import club_rules_set, evening_rescore
from scorekeeper.services.imports import (
    DuplicateGame,
    evening_import,
    evenings_import,
)
from scorekeeper.services.joins import (
    invitation_mail_send,
    join_link_create,
    join_link_revoke,
    join_with_link,
)
from scorekeeper.services.seasons import (
    season_create,
    season_ensure_for,
    season_for_date,
)
from scorekeeper.services.tournament_fixes import (
    tournament_deal_correct,
    tournament_schedule_search,
)
from scorekeeper.services.tournaments import (
    round_close,
    round_start,
    tournament_create,
    tournament_meetings,
    tournament_public_link_create,
    tournament_public_link_revoke,
    tournament_register,
    tournament_withdraw,
)

__all__ = [
    "ArchiveGone",
    "DealAlreadyRestored",
    "DealGone",
    "DealInputs",
    "DealNumberTaken",
    "DuplicateGame",
    "Restored",
    "ServiceError",
    "UploadsLimited",
    "archive_import",
    "archive_restore",
    "archive_upload_count",
    "archive_wait",
    "archive_waiting_cleanup",
    "club_create",
    "club_rename",
    "club_rules_set",
    "club_set_evening_points",
    "deal_delete",
    "deal_record",
    "deal_restore",
    "deal_update",
    "dealer_after",
    "deals_restore_all",
    "default_sitting_out",
    "evening_close",
    "evening_import",
    "evening_reopen",
    "evening_rescore",
    "evening_start",
    "evening_update",
    "evenings_import",
    "game_start",
    "invitation_create",
    "invitation_mail_send",
    "invitation_withdraw",
    "invitations_accept",
    "join_link_create",
    "join_link_revoke",
    "join_with_link",
    "member_leave",
    "member_remove",
    "next_dealer",
    "ownership_transfer",
    "player_add",
    "player_rename",
    "player_retire",
    "player_update",
    "present_players",
    "round_close",
    "round_start",
    "season_create",
    "season_ensure_for",
    "season_for_date",
    "seat_join",
    "seat_leave",
    "share_link_create",
    "share_link_revoke",
    "tournament_create",
    "tournament_deal_correct",
    "tournament_meetings",
    "tournament_public_link_create",
    "tournament_public_link_revoke",
    "tournament_register",
    "tournament_schedule_search",
    "tournament_withdraw",
]
