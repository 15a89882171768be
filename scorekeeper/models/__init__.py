"""The tables, a module per family; everything is imported from here. Models hold data and
read-only helpers; writes go through ``services``; they import only ``scoring`` and each
other.
"""

from __future__ import annotations

from scorekeeper.models.archives import ArchiveUpload, WaitingArchive
from scorekeeper.models.clubs import (
    Club,
    CostlyAction,
    Invitation,
    InvitationMail,
    JoinLink,
    Membership,
    Player,
    RemovedMember,
    default_points_scale,
    new_share_token,
)
from scorekeeper.models.deals import (
    CHELEM_CHOICES,
    PETIT_AU_BOUT_CHOICES,
    POIGNEE_KINDS,
    POIGNEE_LABELS,
    Deal,
    DealChange,
    DealScore,
    DeletedDeal,
    stored_inputs,
)
from scorekeeper.models.evenings import Evening, Game, Season, Seat
from scorekeeper.models.figures import EveningFigures, FiguresCheckpoint, PlayerEvening
from scorekeeper.models.tournaments import (
    Tournament,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
)
