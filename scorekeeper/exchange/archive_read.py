"""The club archive in: the whole file checked by the pure scoring code into an ``Archive``
for ``services.archive_import``; a ``ScoringError`` names the first mistake's place."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from scorekeeper.exchange.archive_check import (
    ARCHIVE_MAX_DEALS,
    ARCHIVE_MAX_INVITATIONS,
    DEAL_EXTRA_KEYS,
    FORMAT,
    VERSION,
    email,
    fail,
    json_list,
    json_object,
    moment,
    not_a_player,
    once,
    player_of,
    read_evening_points,
    read_history,
    where,
)
from scorekeeper.exchange.archive_rules import read_rules
from scorekeeper.exchange.archive_tournaments import read_tournaments
from scorekeeper.exchange.error_text import error_text
from scorekeeper.models import Game, Membership
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.import_plan import dated_digest, plan_sheet
from scorekeeper.scoring.inputs import (
    clean_date,
    clean_licence,
    clean_name,
    clean_place,
    clean_season_name,
    name_key,
)
from scorekeeper.scoring.rules import FFT_RULES, HouseRules, rules_from_data
from scorekeeper.scoring.sheet import parse_sheet
from scorekeeper.scoring.sheet_json import load_json as json_load
from scorekeeper.services.archives import Archive, ArchiveEvening, ArchiveGame

# name, retired, member's e-mail, created, federation licence number ("" for none)
Players = list[tuple[str, bool, str | None, dt.datetime | None, str]]


def _seats(data: dict[str, Any], players: dict[str, str]) -> list[tuple[str, bool]]:
    seats = []
    for seat in json_list(data.get("seats"), "seats"):
        seat = json_object(seat, "seats")
        name = player_of(seat.get("player"), players, "seats")
        seats.append((name, seat.get("present", True) is not False))
    return seats


def _deal_extras(
    raw_deals: list[Any], names: list[str], players: dict[str, str]
) -> tuple[list[Any], list[list[Any]], list[dt.datetime | None], list[list[Any]]]:
    """Each deal split into its sheet part and the archive's own keys (absent, moments,
    history), checked."""
    bare, absent, created, history = [], [], [], []
    for number, raw in enumerate(raw_deals, start=1):
        raw = json_object(raw, "deal")
        try:
            away = [
                players.get(name_key(n), n) if isinstance(n, str) else n
                for n in json_list(raw.get("absent"), "absent")
            ]
            for name in away:
                if name not in names:
                    raise not_a_player("absent", name)
            created.append(moment(raw.get("created_at"), "created_at"))
        except ScoringError as error:
            raise error.with_deal(number) from None
        absent.append(away)
        history.append(read_history(raw.get("history"), players))
        bare.append({key: value for key, value in raw.items() if key not in DEAL_EXTRA_KEYS})
    return bare, absent, created, history


def _table(data: dict[str, Any], names: list[str]) -> tuple[str, str]:
    """The game's first dealer and way to play with five, checked."""
    first = data.get("first_dealer", names[0] if names else None)
    if not isinstance(first, str) or first not in names:
        raise not_a_player("first_dealer", first)
    five_mode = data.get("five_mode", Game.FiveMode.FIVE)
    if five_mode not in Game.FiveMode.values:
        raise fail(
            "five_mode",
            "not_five_mode",
            "%(value)s is not a way to play with five (%(options)s)",
            value=repr(five_mode)[:60],
            options=", ".join(Game.FiveMode.values),
        )
    return first, five_mode


def _read_game(data: object, players: dict[str, str], rules: HouseRules = FFT_RULES) -> ArchiveGame:
    """A game, its tarot deals scored by its evening's ``rules``."""
    data = json_object(data, "game")
    kind = data.get("kind", "tarot")
    seats = _seats(data, players)
    names = [name for name, _present in seats]
    bare, absent, created, history = _deal_extras(
        json_list(data.get("deals"), "deals"), names, players
    )
    sheet_data: dict[str, Any] = {"version": 2, "game": kind, "players": names, "deals": bare}
    if kind == Game.Kind.ESCOPETTE:
        sheet_data["target"] = data.get("target")
    elif rules != FFT_RULES:
        sheet_data.update(version=3, rules=rules.to_data())
    plan = plan_sheet(parse_sheet(sheet_data))  # dealers missing: in turn
    plan.first_dealer, plan.five_mode = _table(data, names)
    plan.seats = seats
    for deal, away in zip(plan.deals, absent, strict=True):
        deal.present = tuple(name for name in names if name not in away)
    return ArchiveGame(plan=plan, created=created, history=history)


def load_json(text: str | bytes) -> dict[str, Any]:
    """The archive's JSON object, of this app's format and a version it reads."""
    data = json_object(json_load(text, "archive"), "archive")
    if data.get("format") != FORMAT:
        raise fail("format", "not_archive", "this is not a club archive of this app")
    if data.get("version") != VERSION:
        raise fail(
            "version",
            "version",
            "%(value)s is not a version this app reads (1 to %(latest)s)",
            value=repr(data.get("version"))[:60],
            latest=VERSION,
        )
    return data


def _members(data: dict[str, Any]) -> list[tuple[str, str, dt.datetime | None]]:
    members = []
    for member in json_list(data.get("members"), "members"):
        member = json_object(member, "members")
        role = member.get("role", Membership.Role.MEMBER)
        if role not in Membership.Role.values:
            role = Membership.Role.MEMBER
        at = moment(member.get("joined_at"), "members")
        members.append((email(member.get("email"), "members"), role, at))
    once([address for address, _role, _at in members], "members")
    if sum(role == Membership.Role.OWNER for _email, role, _at in members) > 1:
        raise fail("members", "two_owners", "a club has one owner")
    return members


def _invitations(data: dict[str, Any]) -> list[tuple[str, dt.datetime | None]]:
    invitations = []
    for invitation in json_list(data.get("invitations"), "invitations"):
        invitation = json_object(invitation, "invitations")
        invitations.append(
            (
                email(invitation.get("email"), "invitations"),
                moment(invitation.get("created_at"), "invitations"),
            )
        )
    once([address for address, _at in invitations], "invitations")
    return invitations


def _players(data: dict[str, Any]) -> tuple[Players, dict[str, str]]:
    """The players, and their names by name key (for the games' references)."""
    players: Players = []
    by_key: dict[str, str] = {}
    for player in json_list(data.get("players"), "players"):
        player = json_object(player, "players")
        name = clean_name(player.get("name"))
        if name_key(name) in by_key:
            raise fail(
                "players",
                "same_player",
                "%(first)s and %(second)s are the same player",
                first=by_key[name_key(name)],
                second=name,
            )
        by_key[name_key(name)] = name
        member = player.get("member")
        players.append(
            (
                name,
                player.get("retired") is True,
                email(member, "players") if member is not None else None,
                moment(player.get("created_at"), "players"),
                clean_licence(player.get("licence"), "players"),  # archives before it: none
            )
        )
    return players, by_key


def _seasons(data: dict[str, Any]) -> list[tuple[str, dt.date, dt.date]]:
    seasons = []
    for season in json_list(data.get("seasons"), "seasons"):
        season = json_object(season, "seasons")
        start = clean_date(season.get("start"), "seasons")
        end = clean_date(season.get("end"), "seasons")
        if end < start:
            raise fail("seasons", "season_dates", "the last day cannot come before the first day")
        seasons.append((clean_season_name(season.get("name"), "seasons"), start, end))
    once([f"{start} – {end}" for _name, start, end in seasons], "seasons")
    return seasons


def _evening(raw: object, players: dict[str, str]) -> ArchiveEvening:
    evening = json_object(raw, "evening")
    item = ArchiveEvening(
        date=clean_date(evening.get("date")),
        place=clean_place(evening.get("place")),
        created_at=moment(evening.get("created_at"), "date"),
        closed_at=moment(evening.get("closed_at"), "date"),
        rules=read_rules(evening),
    )
    rules = rules_from_data(item.rules)
    for number, game in enumerate(json_list(evening.get("games"), "games"), start=1):
        try:
            item.games.append(_read_game(game, players, rules))
        except ScoringError as error:
            raise where(error, game=number) from None
        item.games[-1].plan.digest = dated_digest(item.games[-1].plan.digest, item.date)
    return item


def _evenings(
    data: dict[str, Any], players: dict[str, str], max_deals: int | None
) -> list[ArchiveEvening]:
    evenings = []
    count = 0
    for number, raw in enumerate(json_list(data.get("evenings"), "evenings"), start=1):
        try:
            evenings.append(_evening(raw, players))
        except ScoringError as error:
            raise where(error, evening=number) from None
        count += sum(len(game.plan.deals) for game in evenings[-1].games)
        if max_deals is not None and count > max_deals:
            raise where(
                fail(
                    "archive",
                    "too_many_deals",
                    "%(count)s deals: one import takes at most %(limit)s",
                    count=f"{count}+",
                    limit=max_deals,
                ),
                evening=number,
            )
    return evenings


def read_archive(text: str | bytes, *, max_deals: int | None = None) -> Archive:
    """Check a whole archive (a ScoringError says where the first mistake is)."""
    return read_data(load_json(text), max_deals=max_deals)


def read_data(data: dict[str, Any], *, max_deals: int | None = None) -> Archive:
    """The archive's JSON object (``load_json``), checked."""
    club = json_object(data.get("club"), "club")
    name = clean_place(club.get("name"), "club")
    if not name:
        raise fail("club", "empty", "cannot be empty")
    members, invitations = _members(data), _invitations(data)
    players, by_key = _players(data)
    seasons = _seasons(data)
    evenings = _evenings(data, by_key, max_deals)
    evening_points, evening_points_scale = read_evening_points(club)
    return Archive(
        name=name,
        created_at=moment(club.get("created_at"), "club"),
        members=members,
        invitations=invitations,
        players=players,
        seasons=seasons,
        evenings=evenings,
        tournaments=read_tournaments(data, by_key, [len(e.games) for e in evenings]),
        evening_points=evening_points,
        evening_points_scale=evening_points_scale,
        rules=read_rules(club),
    )


def compact(data: dict[str, Any]) -> bytes:
    """The archive's JSON without spaces: what waits between the preview and the restore."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def read_upload(text: str | bytes) -> tuple[Archive, bytes]:
    """An upload on the owner's page: checked (``ARCHIVE_MAX_DEALS`` at most), and compact."""
    data = load_json(text)
    archive = read_data(data, max_deals=ARCHIVE_MAX_DEALS)
    invited = {email for email, _role, _at in archive.members}
    invited |= {email for email, _at in archive.invitations}
    if len(invited) > ARCHIVE_MAX_INVITATIONS:
        raise fail(
            "invitations",
            "too_many_invitations",
            "%(count)s members and invitations: one archive invites at most %(limit)s",
            count=len(invited),
            limit=ARCHIVE_MAX_INVITATIONS,
        )
    return archive, compact(data)


def read_kept(content: bytes) -> Archive:
    """A compact archive back from the waiting room, checked again."""
    return read_archive(content, max_deals=ARCHIVE_MAX_DEALS)


def refusal_text(error: ScoringError) -> str:
    """The error in the reader's language, with where it is in the archive."""
    place = getattr(error, "archive_place", {})
    return error_text(error, evening=place.get("evening"))
