"""The admin, for staff: members, invitations and links are edited here directly; a player
is saved through the services (a rename raises the version of every evening that shows the
name, so every page shows it at the next request); what the pages read and cache (evenings,
games, seats, deals, scores, seasons, tournaments, the clubs' rules) is read-only here, and
changed in the app, whose services keep the versions.

Names follow the rules of every way in (``scoring.inputs``, through the form fields of
``screens.input_fields``): what the admin stores, the club's archive restores.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from scorekeeper import services
from scorekeeper.models import (
    ArchiveUpload,
    Club,
    CostlyAction,
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
)
from scorekeeper.screens.input_fields import ClubNameField, NameField


def ruled_form(model: type[Any], **fields: type[forms.Field]) -> type[forms.ModelForm]:
    """The admin's form of ``model``, its ``fields`` read by the rules of every way in."""
    meta = type("Meta", (), {"model": model, "fields": "__all__", "field_classes": fields})
    return type(f"{model.__name__}RuledForm", (forms.ModelForm,), {"Meta": meta})


class ReadOnly:
    """Shown, never added, changed or deleted here: the pages read and cache it by versions
    that only the services raise."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# --- Clubs ------------------------------------------------------------------------------


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 0
    raw_id_fields = ("invited_by",)


class PlayerInline(ReadOnly, admin.TabularInline):
    model = Player
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    form = ruled_form(Club, name=ClubNameField)
    list_display = ("name", "created_at")
    search_fields = ("name",)
    date_hierarchy = "created_at"
    inlines = (MembershipInline, InvitationInline, PlayerInline)
    # Its name heads every page, its rules and points scale score the evenings: the app's
    # owner pages change them through the services.
    readonly_fields = ("name", "created_at", "evening_points", "evening_points_scale", "rules")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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


@admin.register(CostlyAction)
class CostlyActionAdmin(admin.ModelAdmin):
    """An action that makes the server compute much, counted for its account's limit."""

    list_display = ("user", "kind", "at")
    list_filter = ("kind",)
    search_fields = ("user__email",)
    raw_id_fields = ("user",)
    list_select_related = ("user",)


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


@admin.register(ArchiveUpload)
class ArchiveUploadAdmin(admin.ModelAdmin):
    """An account's archive uploads of the last hour (the hourly limit counts them)."""

    list_display = ("user", "uploaded_at")
    search_fields = ("user__email",)
    raw_id_fields = ("user",)
    list_select_related = ("user",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """Saved through the services: a rename raises the version of the evenings that show the
    name; a name or an account the app refuses is refused here too, and nothing is saved."""

    form = ruled_form(Player, name=NameField)

    list_display = ("name", "club", "user", "retired", "created_at")
    list_filter = ("retired",)
    search_fields = ("name", "club__name", "user__email", "user__display_name")
    raw_id_fields = ("club", "user")
    list_select_related = ("club", "user")
    fields = ("club", "name", "user", "retired")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return ("club",) if obj is not None else ()

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its scores stay in the sheets; the app retires a player instead

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        if not change:
            created = services.player_add(club=obj.club, name=obj.name, user=obj.user)
            obj.pk, obj.name, obj._state.adding = created.pk, created.name, False
            return
        stored = Player.objects.select_related("club").get(pk=obj.pk)
        services.player_update(player=stored, name=obj.name, user=obj.user)
        if stored.retired != obj.retired:
            services.player_retire(player=stored, retired=obj.retired)
        obj.name = stored.name

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except services.ServiceError as error:  # raised in the admin's transaction: undone
            self.message_user(request, error.message, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())


# --- Evenings and games ------------------------------------------------------------------


class GameInline(ReadOnly, admin.TabularInline):
    model = Game
    extra = 0
    raw_id_fields = ("first_dealer",)
    show_change_link = True


@admin.register(Evening)
class EveningAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("__str__", "club", "date", "place", "closed_at", "version")
    list_filter = (("closed_at", admin.EmptyFieldListFilter), "date")
    search_fields = ("club__name", "place")
    date_hierarchy = "date"
    raw_id_fields = ("club", "created_by")
    list_select_related = ("club",)
    inlines = (GameInline,)


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Game)
class GameAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("__str__", "evening", "number", "kind", "target", "five_mode")
    list_filter = ("kind", "five_mode")
    search_fields = ("evening__club__name",)
    raw_id_fields = ("evening", "first_dealer")
    list_select_related = ("evening__club",)
    inlines = (SeatInline,)


@admin.register(Seat)
class SeatAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("player", "game", "position", "present")
    list_filter = ("present",)
    search_fields = ("player__name", "game__evening__club__name")
    raw_id_fields = ("game", "player")
    list_select_related = ("player", "game__evening__club")


# --- Deals ----------------------------------------------------------------------------------


class DealScoreInline(ReadOnly, admin.TabularInline):
    model = DealScore
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Deal)
class DealAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("__str__", "game", "number", "dealer", "taker", "contract", "passed")
    list_filter = ("passed", "contract")
    search_fields = ("game__evening__club__name", "idempotency_key")
    raw_id_fields = ("game", "dealer", "taker", "partner", "created_by")
    list_select_related = ("game__evening__club", "dealer", "taker")
    inlines = (DealScoreInline,)


@admin.register(DealScore)
class DealScoreAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("player", "deal", "seated", "score")
    list_filter = ("seated",)
    search_fields = ("player__name",)
    raw_id_fields = ("deal", "player")
    list_select_related = ("player", "deal__game__evening__club")


@admin.register(DeletedDeal)
class DeletedDealAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("__str__", "game", "number", "deleted_by", "deleted_at", "restored_at")
    raw_id_fields = ("game", "deleted_by", "restored_as")
    list_select_related = ("game__evening__club", "deleted_by")


@admin.register(DealChange)
class DealChangeAdmin(ReadOnly, admin.ModelAdmin):
    """A deal's history: read it here; the services write it."""

    list_display = ("__str__", "game", "number", "action", "by", "at")
    list_filter = ("action",)
    search_fields = ("game__evening__club__name",)
    raw_id_fields = ("game", "deal", "deleted", "by")
    list_select_related = ("game__evening__club", "by")


# --- Seasons ----------------------------------------------------------------------------------


@admin.register(Season)
class SeasonAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("name", "club", "start", "end")
    search_fields = ("name", "club__name")
    date_hierarchy = "start"
    raw_id_fields = ("club",)
    list_select_related = ("club",)


@admin.register(PlayerEvening, EveningFigures, FiguresCheckpoint)
class ReadModelAdmin(ReadOnly, admin.ModelAdmin):
    """The figures the writes keep (``models.figures``): shown, never edited here."""


# --- Tournaments ------------------------------------------------------------------------------


@admin.register(Tournament)
class TournamentAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("name", "club", "date", "place", "rounds", "deals_per_round", "state")
    list_filter = ("state",)
    search_fields = ("name", "club__name", "place")
    raw_id_fields = ("club", "created_by")
    list_select_related = ("club",)


@admin.register(TournamentPlayer)
class TournamentPlayerAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("player", "tournament", "guest", "present")
    search_fields = ("player__name", "tournament__name")
    raw_id_fields = ("tournament", "player")
    list_select_related = ("player", "tournament")


@admin.register(TournamentRound)
class TournamentRoundAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("__str__", "tournament", "number", "started_at", "closed_at")
    search_fields = ("tournament__name",)
    raw_id_fields = ("tournament",)
    list_select_related = ("tournament",)


@admin.register(TournamentTable)
class TournamentTableAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("__str__", "round", "number", "evening")
    search_fields = ("round__tournament__name",)
    raw_id_fields = ("round", "evening", "game")
    list_select_related = ("round__tournament", "evening")
