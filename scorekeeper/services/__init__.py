"""Every database write of the main app: keyword-only functions, each in a transaction.

Views parse input and call one of these; scores come only from ``scorekeeper.scoring``.
One module per entity; callers use this package (``services.deal_record``).
"""

from __future__ import annotations

from scorekeeper.services.clubs import (
    club_create,
    club_rename,
    invitation_create,
    invitation_withdraw,
    invitations_accept,
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
from scorekeeper.services.deals import (
    DealAlreadyRestored,
    DealGone,
    DealNumberTaken,
    deal_delete,
    deal_record,
    deal_restore,
    deal_update,
    deals_restore_all,
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
    import_preview,
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

__all__ = [
    "DealAlreadyRestored",
    "DealGone",
    "DealInputs",
    "DealNumberTaken",
    "DuplicateGame",
    "ServiceError",
    "club_create",
    "club_rename",
    "club_rules_set",
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
    "import_preview",
    "invitation_create",
    "invitation_mail_send",
    "invitation_withdraw",
    "invitations_accept",
    "join_link_create",
    "join_link_revoke",
    "join_with_link",
    "member_remove",
    "next_dealer",
    "ownership_transfer",
    "player_add",
    "player_rename",
    "player_retire",
    "player_update",
    "present_players",
    "season_create",
    "season_ensure_for",
    "season_for_date",
    "seat_join",
    "seat_leave",
    "share_link_create",
    "share_link_revoke",
]
