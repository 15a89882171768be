"""The admin, for staff repairs: it writes directly, without the services' checks."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import F

from scorekeeper.models import (
    Club,
    Deal,
    DealChange,
    DealScore,
    DeletedDeal,
    Evening,
    EveningFigures,
    FiguresCheckpoint,
    Game,
    Invitation,
    InvitationMail,
    JoinLink,
    Membership,
    Player,
    PlayerEvening,
    RemovedMember,
    Season,
    Seat,
    Tournament,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
    WaitingArchive,
    refresh_figures,
)

# --- Clubs ------------------------------------------------------------------------------


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 0
    raw_id_fields = ("invited_by",)


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")
    search_fields = ("name",)
    date_hierarchy = "created_at"
    inlines = (MembershipInline, InvitationInline, PlayerInline)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "club", "role", "joined_at")
    list_filter = ("role",)
    search_fields = ("user__email", "user__display_name", "club__name")
    raw_id_fields = ("club", "user")
    list_select_related = ("user", "club")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("email", "club", "invited_by", "created_at")
    search_fields = ("email", "club__name")
    raw_id_fields = ("club", "invited_by")
    list_select_related = ("club", "invited_by")


@admin.register(JoinLink)
class JoinLinkAdmin(admin.ModelAdmin):
    list_display = ("club", "created_by", "created_at", "expires_at", "revoked_at")
    search_fields = ("club__name",)
    raw_id_fields = ("club", "created_by")
    list_select_related = ("club", "created_by")


@admin.register(InvitationMail)
class InvitationMailAdmin(admin.ModelAdmin):
    list_display = ("email", "sent_by", "sent_at")
    search_fields = ("email",)
    raw_id_fields = ("sent_by",)
    list_select_related = ("sent_by",)


@admin.register(RemovedMember)
class RemovedMemberAdmin(admin.ModelAdmin):
    """Deleting the row lets the account back in by the club's join link."""

    list_display = ("club", "user", "removed_at")
    search_fields = ("club__name", "user__email")
    raw_id_fields = ("club", "user")
    list_select_related = ("club", "user")


@admin.register(WaitingArchive)
class WaitingArchiveAdmin(admin.ModelAdmin):
    list_display = ("user", "size", "created_at", "expires_at", "club")
    search_fields = ("user__email",)
    raw_id_fields = ("user", "club")
    list_select_related = ("user", "club")
    exclude = ("content",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "user", "retired", "created_at")
    list_filter = ("retired",)
    search_fields = ("name", "club__name", "user__email", "user__display_name")
    raw_id_fields = ("club", "user")
    list_select_related = ("club", "user")


# --- Evenings and games ------------------------------------------------------------------


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    raw_id_fields = ("first_dealer",)
    show_change_link = True


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ("__str__", "club", "date", "place", "closed_at", "version")
    list_filter = (("closed_at", admin.EmptyFieldListFilter), "date")
    search_fields = ("club__name", "place")
    date_hierarchy = "date"
    raw_id_fields = ("club", "created_by")
    list_select_related = ("club",)
    inlines = (GameInline,)
    readonly_fields = ("version",)

    def save_related(self, request: Any, form: Any, formsets: Any, change: bool) -> None:
        """An evening changed here (its date, place or games) gets a new version, as the
        services give it: its sheets and figures are read again, whole."""
        super().save_related(request, form, formsets, change)
        if change:
            pk = form.instance.pk
            Evening.objects.filter(pk=pk).update(version=F("version") + 1, added_deal=None)
            refresh_figures([pk])


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "evening", "number", "kind", "target", "five_mode")
    list_filter = ("kind", "five_mode")
    search_fields = ("evening__club__name",)
    raw_id_fields = ("evening", "first_dealer")
    list_select_related = ("evening__club",)
    inlines = (SeatInline,)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("player", "game", "position", "present")
    list_filter = ("present",)
    search_fields = ("player__name", "game__evening__club__name")
    raw_id_fields = ("game", "player")
    list_select_related = ("player", "game__evening__club")


# --- Deals ----------------------------------------------------------------------------------


class RepairBumpsTheEvening:
    """A repair of deals or scores changes what the evening shows: its version is bumped
    (as the services do), so sheets, following phones and stored season figures follow."""

    def _evenings(self, objects: Any) -> set[int]:
        evenings = set()
        for obj in objects:
            deal = obj if isinstance(obj, Deal) else obj.deal
            evenings.add(deal.game.evening_id)
        return evenings

    def _bump(self, evening_ids: set[int]) -> None:
        Evening.objects.filter(pk__in=evening_ids).update(version=F("version") + 1, added_deal=None)
        refresh_figures(evening_ids)

    def save_model(self, request: Any, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)  # type: ignore[misc]
        self._bump(self._evenings([obj]))

    def delete_model(self, request: Any, obj: Any) -> None:
        evenings = self._evenings([obj])
        super().delete_model(request, obj)  # type: ignore[misc]
        self._bump(evenings)

    def delete_queryset(self, request: Any, queryset: Any) -> None:
        evenings = self._evenings(queryset)
        super().delete_queryset(request, queryset)  # type: ignore[misc]
        self._bump(evenings)

    def save_related(self, request: Any, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)  # type: ignore[misc]
        self._bump(self._evenings([form.instance]))


class DealScoreInline(admin.TabularInline):
    model = DealScore
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Deal)
class DealAdmin(RepairBumpsTheEvening, admin.ModelAdmin):
    list_display = ("__str__", "game", "number", "dealer", "taker", "contract", "passed")
    list_filter = ("passed", "contract")
    search_fields = ("game__evening__club__name", "idempotency_key")
    raw_id_fields = ("game", "dealer", "taker", "partner", "created_by")
    list_select_related = ("game__evening__club", "dealer", "taker")
    inlines = (DealScoreInline,)


@admin.register(DealScore)
class DealScoreAdmin(RepairBumpsTheEvening, admin.ModelAdmin):
    list_display = ("player", "deal", "seated", "score")
    list_filter = ("seated",)
    search_fields = ("player__name",)
    raw_id_fields = ("deal", "player")
    list_select_related = ("player", "deal__game__evening__club")


@admin.register(DeletedDeal)
class DeletedDealAdmin(admin.ModelAdmin):
    list_display = ("__str__", "game", "number", "deleted_by", "deleted_at", "restored_at")
    raw_id_fields = ("game", "deleted_by", "restored_as")
    list_select_related = ("game__evening__club", "deleted_by")


@admin.register(DealChange)
class DealChangeAdmin(admin.ModelAdmin):
    """A deal's history: read it here; the services write it."""

    list_display = ("__str__", "game", "number", "action", "by", "at")
    list_filter = ("action",)
    search_fields = ("game__evening__club__name",)
    raw_id_fields = ("game", "deal", "deleted", "by")
    list_select_related = ("game__evening__club", "by")


# --- Seasons ----------------------------------------------------------------------------------


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "start", "end")
    search_fields = ("name", "club__name")
    date_hierarchy = "start"
    raw_id_fields = ("club",)
    list_select_related = ("club",)


@admin.register(PlayerEvening, EveningFigures, FiguresCheckpoint)
class ReadModelAdmin(admin.ModelAdmin):
    """The figures the writes keep (``models.figures``): shown, never edited here."""

    raw_id_fields = ("evening", "player", "club")

    def get_raw_id_fields(self, request: Any) -> list[str]:
        names = {field.name for field in self.model._meta.fields}
        return [name for name in self.raw_id_fields if name in names]

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False


# --- Tournaments ------------------------------------------------------------------------------


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "date", "place", "rounds", "deals_per_round", "state")
    list_filter = ("state",)
    search_fields = ("name", "club__name", "place")
    raw_id_fields = ("club", "created_by")
    list_select_related = ("club",)


@admin.register(TournamentPlayer)
class TournamentPlayerAdmin(admin.ModelAdmin):
    list_display = ("player", "tournament", "guest", "present")
    search_fields = ("player__name", "tournament__name")
    raw_id_fields = ("tournament", "player")
    list_select_related = ("player", "tournament")


@admin.register(TournamentRound)
class TournamentRoundAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "number", "started_at", "closed_at")
    search_fields = ("tournament__name",)
    raw_id_fields = ("tournament",)
    list_select_related = ("tournament",)


@admin.register(TournamentTable)
class TournamentTableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "round", "number", "evening")
    search_fields = ("round__tournament__name",)
    raw_id_fields = ("round", "evening", "game")
    list_select_related = ("round__tournament", "evening")
