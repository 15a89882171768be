"""Club archives as new clubs: ``archive_import`` writes what ``exchange.archive_read``
checked, all or nothing, in bulk. A history line's author is matched only among the new
club's members.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.models import User
from scorekeeper.models import (
    Club,
    Deal,
    DealChange,
    Evening,
    Invitation,
    Membership,
    Player,
    Season,
)
from scorekeeper.scoring.import_plan import GamePlan
from scorekeeper.scoring.inputs import fitted
from scorekeeper.server.wording import short_date_format
from scorekeeper.services.archive_tournaments import ArchiveTournament, store_tournaments
from scorekeeper.services.figures import refresh_figures
from scorekeeper.services.imports import store_game
from scorekeeper.services.seasons import season_ensure_for

# A snapshot's player references: one player, or a list of them.
ONE_PLAYER = ("dealer", "taker", "partner")
PLAYER_LISTS = ("present", "seated")


@dataclass
class ArchiveGame:
    plan: GamePlan
    created: list[dt.datetime | None]
    history: list[list[Any]]


@dataclass
class ArchiveEvening:
    date: dt.date
    place: str
    created_at: dt.datetime | None
    closed_at: dt.datetime | None
    games: list[ArchiveGame] = field(default_factory=list)
    rules: dict[str, Any] = field(default_factory=dict)  # HouseRules.to_data()


@dataclass
class Archive:
    """A checked archive, ready to write."""

    name: str
    created_at: dt.datetime | None
    members: list[tuple[str, str, dt.datetime | None]]
    invitations: list[tuple[str, dt.datetime | None]]
    players: list[tuple[str, bool, str | None, dt.datetime | None, str]]
    seasons: list[tuple[str, dt.date, dt.date]]
    evenings: list[ArchiveEvening]
    tournaments: list[ArchiveTournament] = field(default_factory=list)
    evening_points: bool = False  # the club's evening ranking points, and their scale
    evening_points_scale: tuple[int, ...] | None = None  # None: the default scale
    rules: dict[str, Any] = field(default_factory=dict)  # the club's, HouseRules.to_data()

    @property
    def deal_count(self) -> int:
        return sum(len(g.plan.deals) for e in self.evenings for g in e.games)


def snapshot_by(snapshot: dict[str, Any] | None, to: Callable[[Any], Any]) -> dict[str, Any] | None:
    """The snapshot with every player reference passed through ``to`` (ids <-> names)."""
    if snapshot is None:
        return None
    out = dict(snapshot)
    for key in ONE_PLAYER:
        if out.get(key) is not None:
            out[key] = to(out[key])
    for key in PLAYER_LISTS:
        out[key] = [to(player) for player in out.get(key) or []]
    if out.get("miseres"):  # only under house rules that score misères
        out["miseres"] = [to(player) for player in out["miseres"]]
    out["stakes"] = {trump: to(player) for trump, player in (out.get("stakes") or {}).items()}
    if out.get("paper"):
        out["paper"] = {to(player): score for player, score in out["paper"].items()}
    out["created_by"] = None  # who first entered it: the history's own "by" says it
    return dict(sorted(out.items()))  # one order, whichever way the snapshot was built


def _store_history(club: Club, pairs: Sequence[tuple[Deal, list[dict[str, Any]]]]) -> None:
    """Imported deals' history as ``DealChange`` rows; an author only among the new members."""
    if not pairs:
        return
    ids = {p.name: p.pk for p in Player.objects.filter(club=club)}
    members = {m.user.email: m.user for m in club.memberships.select_related("user")}
    DealChange.objects.bulk_create(
        DealChange(
            game_id=deal.game_id,
            deal=deal,
            number=deal.number,
            action=entry["action"],
            by=members.get(entry.get("by") or ""),
            at=dt.datetime.fromisoformat(entry["at"]),
            before=snapshot_by(entry.get("before"), ids.__getitem__),
            after=snapshot_by(entry.get("after"), ids.__getitem__),
        )
        for deal, entries in pairs
        for entry in entries
    )


def _restore_members(club: Club, archive: Archive) -> dict[str, User]:
    """Accounts and memberships as archived (the command, run by the site's admin)."""
    emails = {email for email, _role, _at in archive.members}
    emails |= {p[2] for p in archive.players if p[2]}
    existing = {u.email: u for u in User.objects.filter(email__in=emails)}
    users = {
        email: existing.get(email) or User.objects.create_user(email) for email in sorted(emails)
    }
    Membership.objects.bulk_create(
        Membership(club=club, user=users[email], role=role, joined_at=at or timezone.now())
        for email, role, at in archive.members
    )
    Invitation.objects.bulk_create(
        Invitation(club=club, email=email, created_at=at or timezone.now())
        for email, at in archive.invitations
    )
    return users


def _owned_by(club: Club, owner: User) -> dict[str, User]:
    """``owner`` owns the new club, alone. An upload invites nobody: its addresses are the
    uploader's to write, and an invitation makes whoever signs in with the address a member
    (the owner invites the members again from the club's page)."""
    Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    return {owner.email: owner}


def _store_players(club: Club, archive: Archive, users: dict[str, User]) -> dict[str, Player]:
    players = Player.objects.bulk_create(
        Player(
            club=club,
            name=name,
            retired=retired,
            user=users.get(member) if member else None,
            created_at=created or timezone.now(),
            licence=licence,
        )
        for name, retired, member, created, licence in archive.players
    )
    if any(player.pk is None for player in players):
        return {p.name: p for p in Player.objects.filter(club=club)}
    return {player.name: player for player in players}


def _store_evenings(
    club: Club, archive: Archive, players: dict[str, Player], *, close_at: dt.datetime | None
) -> list[tuple[Deal, list[Any]]]:
    """Every evening and its games; the deals' history entries, to store after."""
    history: list[tuple[Deal, list[Any]]] = []
    for item in archive.evenings:
        evening = Evening.objects.create(
            club=club,
            date=item.date,
            place=item.place,
            created_at=item.created_at or timezone.now(),
            closed_at=item.closed_at or close_at,
            rules=item.rules,
        )
        for number, game in enumerate(item.games, start=1):
            _game, deals = store_game(
                evening=evening,
                number=number,
                plan=game.plan,
                players=players,
                created_by=None,
                created_at=game.created,
            )
            history.extend(
                (deal, entries)
                for deal, entries in zip(deals, game.history, strict=True)
                if entries
            )
    refresh_figures(Evening.objects.filter(club=club).values_list("pk", flat=True))
    return history


def _cover_with_seasons(club: Club, archive: Archive) -> None:
    Season.objects.bulk_create(
        Season(club=club, name=name, start=start, end=end) for name, start, end in archive.seasons
    )
    covered = [(start, end) for _name, start, end in archive.seasons]
    for item in archive.evenings:
        if not any(start <= item.date <= end for start, end in covered):
            season = season_ensure_for(club=club, date=item.date)
            covered.append((season.start, season.end))


def restored_name(name: str, day: dt.date) -> str:
    """The copy's name, so that it is not taken for the club it was archived from:
    "Les Bouts (restored 1 Dec)", the day in the reader's language."""
    values = {"name": name, "date": formats.date_format(day, short_date_format())}
    limit = Club._meta.get_field("name").max_length
    return fitted(_("%(name)s (restored %(date)s)"), values, cut="name", limit=limit)


def archive_import(*, archive: Archive, owner: User | None, restore_members: bool) -> Club:
    """The archive as a new club. ``restore_members``: accounts and memberships as archived
    (the command, run by the site's admin); otherwise ``owner`` owns the new club alone (the
    archived members and invitations are not invited: ``_owned_by``), the club is named as a
    copy (``restored_name``) and its evenings are closed as imported evenings are (the owner's
    upload)."""
    if not restore_members and owner is None:
        raise ValueError("an owner is needed")
    with transaction.atomic():
        name = archive.name
        if not restore_members:
            name = restored_name(name, timezone.localdate())
        scale = archive.evening_points_scale
        club = Club.objects.create(
            name=name,
            created_at=archive.created_at or timezone.now(),
            evening_points=archive.evening_points,
            rules=archive.rules,
            **({} if scale is None else {"evening_points_scale": list(scale)}),
        )
        if restore_members:
            users = _restore_members(club, archive)
        else:
            assert owner is not None
            users = _owned_by(club, owner)
        players = _store_players(club, archive, users)
        _cover_with_seasons(club, archive)
        close_at = None if restore_members else timezone.now()
        history = _store_evenings(club, archive, players, close_at=close_at)
        _store_history(club, history)
        store_tournaments(club, archive.tournaments, players)
    return club
