"""The admin, for staff: members, invitations and links edited directly; a player saved
through the services (a rename shows on every page at the next request); what the pages read
is read-only here. Names follow the rules of every way in (``screens.input_fields``).
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
    """Shown, never added, changed or deleted here: only the services write it."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def register(
    model: type[Any],
    display: str,
    *,
    raw: str = "",
    search: str = "",
    filters: str = "",
    related: str | None = None,
    base: type = admin.ModelAdmin,
    **options: Any,
) -> None:
    """``model``'s admin: its list's columns, its foreign keys shown by id (``raw``, joined in
    the list unless ``related`` says which), searched and filtered fields (names split by
    spaces), and any other ``ModelAdmin`` option."""
    options = {
        "list_display": display.split(),
        "raw_id_fields": raw.split(),
        "list_select_related": (raw if related is None else related).split(),
        "search_fields": search.split(),
        "list_filter": filters.split(),
        **options,
    }
    admin.site.register(model, type(f"{model.__name__}Admin", (base,), options))


def shown(model: type[Any], display: str, **options: Any) -> None:
    """A read-only table's admin."""
    register(model, display, base=type("Shown", (ReadOnly, admin.ModelAdmin), {}), **options)


def inline(model: type[Any], *, read_only: bool = True, **options: Any) -> type[Any]:
    """``model``'s rows as a table in their parent's page, no blank row offered; read only
    unless ``read_only`` is False; any other ``TabularInline`` option."""
    bases = (ReadOnly, admin.TabularInline) if read_only else (admin.TabularInline,)
    return type(f"{model.__name__}Inline", bases, {"model": model, "extra": 0, **options})


# --- Clubs ------------------------------------------------------------------------------


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    form = ruled_form(Club, name=ClubNameField)
    list_display = ("name", "created_at")
    search_fields = ("name",)
    date_hierarchy = "created_at"
    inlines = (
        inline(Membership, read_only=False, raw_id_fields=("user",)),
        inline(Invitation, read_only=False, raw_id_fields=("invited_by",)),
        inline(Player),
    )
    # Its name heads every page, its rules and points scale score the evenings: the app's
    # owner pages change them through the services.
    readonly_fields = ("name", "created_at", "evening_points", "evening_points_scale", "rules")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


register(
    Membership,
    "user club role joined_at",
    raw="club user",
    filters="role",
    search="user__email user__display_name club__name",
)
register(
    Invitation, "email club invited_by created_at", raw="club invited_by", search="email club__name"
)
register(
    JoinLink,
    "club created_by created_at expires_at revoked_at",
    raw="club created_by",
    search="club__name",
)
register(InvitationMail, "email sent_by sent_at", raw="sent_by", search="email")
# An action that makes the server compute much, counted for its account's limit.
register(CostlyAction, "user kind at", raw="user", filters="kind", search="user__email")
# Deleting the row lets the account back in by the club's join link.
register(RemovedMember, "club user removed_at", raw="club user", search="club__name user__email")
register(
    WaitingArchive,
    "user size created_at expires_at club",
    raw="user club",
    search="user__email",
    exclude=("content",),
)
# An account's archive uploads of the last hour (the hourly limit counts them).
register(ArchiveUpload, "user uploaded_at", raw="user", search="user__email")


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


# --- Evenings, games, deals, seasons: read only -----------------------------------------


# Changelists join what their columns show (Django's select_related() of their foreign keys).
shown(
    Evening,
    "__str__ club date place closed_at version",
    search="club__name place",
    date_hierarchy="date",
    inlines=(inline(Game, show_change_link=True),),
    list_filter=(("closed_at", admin.EmptyFieldListFilter), "date"),
)
shown(
    Game,
    "__str__ evening number kind target five_mode",
    filters="kind five_mode",
    search="evening__club__name",
    inlines=(inline(Seat),),
)
shown(
    Seat,
    "player game position present",
    filters="present",
    search="player__name game__evening__club__name",
)
shown(
    Deal,
    "__str__ game number dealer taker contract passed",
    filters="passed contract",
    search="game__evening__club__name idempotency_key",
    inlines=(inline(DealScore),),
)
shown(DealScore, "player deal seated score", filters="seated", search="player__name")
shown(DeletedDeal, "__str__ game number deleted_by deleted_at restored_at")
# A deal's history: read it here; the services write it.
shown(
    DealChange,
    "__str__ game number action by at",
    filters="action",
    search="game__evening__club__name",
)
shown(Season, "name club start end", search="name club__name", date_hierarchy="start")
# The figures the writes keep (``models.figures``).
for model in (PlayerEvening, EveningFigures, FiguresCheckpoint):
    shown(model, "__str__")


# --- Tournaments ------------------------------------------------------------------------------


shown(
    Tournament,
    "name club date place rounds deals_per_round state",
    filters="state",
    search="name club__name place",
)
shown(TournamentPlayer, "player tournament guest present", search="player__name tournament__name")
shown(TournamentRound, "__str__ tournament number started_at closed_at", search="tournament__name")
shown(TournamentTable, "__str__ round number evening", search="round__tournament__name")
