"""The club archive: one JSON file with everything a club owns, and back.

``{"format": "scorekeeper-club-archive", "version": 1, "club": {...}, "members": [...],
"invitations": [...], "players": [...], "seasons": [...], "evenings": [...]}``. Players are
referred to by name (unique in a club), members by e-mail; no database id is written, so an
archive imported into an empty database and exported again gives the same file.

A game is a deal sheet (``scorekeeper.scoring.sheet``) with its table: ``seats`` in order
(``present``: still at the table), ``five_mode`` and ``first_dealer``; each deal adds its
``dealer``, the players ``absent`` from the table (no score row; the sheet's ``sitting_out``
also names the ones present who sat the deal out), ``created_at`` and an optional
``history`` list (see :func:`history_of` / :func:`store_history`).

Reading checks the whole file with the pure scoring code before anything is written; the
import then writes in bulk, in one transaction.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User, normalize_email_address
from scorekeeper.exchange.archive_rules import read_rules, with_rules
from scorekeeper.exchange.error_text import error_text
from scorekeeper.exchange.exports import BOM, GameData, _load, _names
from scorekeeper.models import (
    Club,
    Deal,
    DealChange,
    Evening,
    Game,
    Invitation,
    Membership,
    Player,
    Season,
)
from scorekeeper.reads.game_sheets import stored_inputs
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.inputs import (
    clean_date,
    clean_name,
    clean_place,
    clean_season_name,
    name_key,
)
from scorekeeper.scoring.paper import PaperDeal
from scorekeeper.scoring.rules import FFT_RULES, HouseRules, rules_from_data
from scorekeeper.scoring.sheet import Sheet, json_error, parse_sheet, sheet_to_data
from scorekeeper.server.parsing import parse_count
from scorekeeper.services.imports import (
    DealPlan,
    GamePlan,
    content_digest,
    dated_digest,
    deal_scores,
    dealer_rotation,
    store_game,
)
from scorekeeper.services.seasons import season_ensure_for

FORMAT = "scorekeeper-club-archive"
VERSION = 1
ARCHIVE_MAX_DEALS = 20_000  # what one upload on the owner's page may bring in
DEAL_EXTRA_KEYS = ("absent", "created_at", "history")
JSON_CONTENT_TYPE = "application/json; charset=utf-8"


# --- Deal history: the adapter to the per-deal change history ------------------------------------


# A snapshot names players by id; in the archive they are named by name (and the member who
# made the change by e-mail), so that the history means the same in another database.
_ONE_PLAYER = ("dealer", "taker", "partner")
_PLAYER_LISTS = ("present", "seated")


def _snapshot_by(snapshot: dict[str, Any] | None, to: Any) -> dict[str, Any] | None:
    """The snapshot with every player reference passed through ``to`` (ids <-> names)."""
    if snapshot is None:
        return None
    out = dict(snapshot)
    for key in _ONE_PLAYER:
        if out.get(key) is not None:
            out[key] = to(out[key])
    for key in _PLAYER_LISTS:
        out[key] = [to(player) for player in out.get(key) or []]
    if out.get("miseres"):
        out["miseres"] = [to(player) for player in out["miseres"]]
    out["stakes"] = {trump: to(player) for trump, player in (out.get("stakes") or {}).items()}
    if out.get("paper"):
        out["paper"] = {to(player): score for player, score in out["paper"].items()}
    out["created_by"] = None  # who first entered it: the history's own "by" says it
    return dict(sorted(out.items()))  # one order, whichever way the snapshot was built


def history_of(deals: Sequence[Deal]) -> dict[int, list[dict[str, Any]]]:
    """Each deal's change history (``DealChange``) as JSON-ready entries, by deal id."""
    if not deals:
        return {}
    names = {p.pk: p.name for p in Player.objects.filter(club_id=deals[0].game.evening.club_id)}
    by_id = {str(pk): name for pk, name in names.items()} | names  # JSON keys are text
    history: dict[int, list[dict[str, Any]]] = {}
    changes = (
        DealChange.objects.filter(deal__in=[deal.pk for deal in deals])
        .select_related("by")
        .order_by("at", "pk")
    )
    for change in changes:
        history.setdefault(change.deal_id, []).append(
            {
                "action": change.action,
                "at": _stamp(change.at),
                "by": change.by.email if change.by is not None else None,
                "before": _snapshot_by(change.before, by_id.__getitem__),
                "after": _snapshot_by(change.after, by_id.__getitem__),
            }
        )
    return history


def store_history(pairs: Sequence[tuple[Deal, list[dict[str, Any]]]]) -> None:
    """Keep imported deals' history entries as ``DealChange`` rows (names back to ids)."""
    if not pairs:
        return
    club_id = pairs[0][0].game.evening.club_id
    ids = {p.name: p.pk for p in Player.objects.filter(club_id=club_id)}
    emails = {e for _deal, entries in pairs for e in (x.get("by") for x in entries) if e}
    users = {u.email: u for u in User.objects.filter(email__in=emails)}
    DealChange.objects.bulk_create(
        DealChange(
            game_id=deal.game_id,
            deal=deal,
            number=deal.number,
            action=entry["action"],
            by=users.get(entry.get("by") or ""),
            at=dt.datetime.fromisoformat(entry["at"]),
            before=_snapshot_by(entry.get("before"), ids.__getitem__),
            after=_snapshot_by(entry.get("after"), ids.__getitem__),
        )
        for deal, entries in pairs
        for entry in entries
    )


# --- Writing --------------------------------------------------------------------------------------


def _stamp(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _game_data(data: GameData, names: dict[int, str], history: dict[int, list[Any]]) -> Any:
    game = data.game
    seats = list(game.seats.all())
    players = [names[seat.player_id] for seat in seats]
    deals = []
    for deal in data.deals:
        inputs = stored_inputs(deal, game.kind, key=names.__getitem__)
        one = Sheet(game=game.kind, players=tuple(players), target=game.target, deals=(inputs,))
        entry = sheet_to_data(one)["deals"][0]
        entry["dealer"] = names[deal.dealer_id]
        at_table = {score.player_id for score in deal.scores.all()}
        absent = [names[seat.player_id] for seat in seats if seat.player_id not in at_table]
        if absent:
            entry["absent"] = absent
        entry["created_at"] = _stamp(deal.created_at)
        if history.get(deal.pk):
            entry["history"] = history[deal.pk]
        deals.append(entry)
    result: dict[str, Any] = {"number": game.number, "kind": game.kind}
    if game.kind == Game.Kind.ESCOPETTE:
        result["target"] = game.target
    result["five_mode"] = game.five_mode
    result["first_dealer"] = names[game.first_dealer_id]
    result["seats"] = [{"player": names[seat.player_id], "present": seat.present} for seat in seats]
    result["deals"] = deals
    return result


def club_archive(club: Club) -> dict[str, Any]:
    """Everything the club owns, as the archive's JSON object."""
    names = _names(club.pk)
    games = _load(Evening.objects.filter(club=club))
    history = history_of([deal for data in games for deal in data.deals])
    by_evening: dict[int, list[Any]] = {}
    for data in games:
        by_evening.setdefault(data.evening.pk, []).append(_game_data(data, names, history))
    evenings = Evening.objects.filter(club=club).order_by("date", "pk")
    members = club.memberships.select_related("user").order_by("user__email")
    players = Player.objects.filter(club=club).select_related("user")
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {"name": club.name, "created_at": _stamp(club.created_at), **with_rules(club)},
        "members": [
            {"email": m.user.email, "role": m.role, "joined_at": _stamp(m.joined_at)}
            for m in members
        ],
        "invitations": [
            {"email": i.email, "created_at": _stamp(i.created_at)}
            for i in club.invitations.order_by("email")
        ],
        "players": [
            {
                "name": p.name,
                "retired": p.retired,
                "member": p.user.email if p.user else None,
                "created_at": _stamp(p.created_at),
            }
            for p in sorted(players, key=lambda p: (name_key(p.name), p.pk))
        ],
        "seasons": [
            {"name": s.name, "start": s.start.isoformat(), "end": s.end.isoformat()}
            for s in club.seasons.order_by("start", "end", "pk")
        ],
        "evenings": [
            {
                "date": e.date.isoformat(),
                "place": e.place,
                "created_at": _stamp(e.created_at),
                "closed_at": _stamp(e.closed_at),
                **with_rules(e),
                "games": by_evening.get(e.pk, []),
            }
            for e in evenings
        ],
    }


def dump_archive(club: Club) -> str:
    return json.dumps(club_archive(club), ensure_ascii=False, indent=1) + "\n"


def archive_filename(club: Club) -> str:
    return f"club-{club.pk}-{timezone.localdate().isoformat()}.json"


# --- Reading --------------------------------------------------------------------------------------


def _fail(field: str, code: str, template: str, **params: Any) -> ScoringError:
    return ScoringError.coded(field, code, template, **params)


def _where(error: ScoringError, **place: int) -> ScoringError:
    """Say where in the archive: evening N (game M)."""
    error.archive_place = {**getattr(error, "archive_place", {}), **place}  # type: ignore[attr-defined]
    return error


def _object(value: object, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(field, "not_object", "%(value)s is not a JSON object", value=repr(value)[:60])
    return value


def _list(value: object, field: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _fail(field, "not_list", "%(value)s is not a list", value=repr(value)[:60])
    return value


def _once(values: list[str], field: str) -> None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise _fail(field, "listed_twice", "%(name)s is listed twice", name=value)
        seen.add(value)


def _moment(value: object, field: str) -> dt.datetime | None:
    if value is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(str(value))
    except ValueError:
        raise _fail(
            field, "not_date", "%(value)s is not a date (YYYY-MM-DD)", value=repr(value)
        ) from None
    clean_date(moment.date(), field)
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, dt.UTC)


def _email(value: object, field: str) -> str:
    if not isinstance(value, str) or "@" not in value or len(value) > 254:
        raise _fail(
            field, "not_email", "%(value)s is not an e-mail address", value=repr(value)[:60]
        )
    clean_place(value, field)  # no control characters
    return normalize_email_address(value)


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
    players: list[tuple[str, bool, str | None, dt.datetime | None]]
    seasons: list[tuple[str, dt.date, dt.date]]
    evenings: list[ArchiveEvening]
    rules: dict[str, Any] = field(default_factory=dict)  # the club's, HouseRules.to_data()

    @property
    def deal_count(self) -> int:
        return sum(len(g.plan.deals) for e in self.evenings for g in e.games)


_CHANGE_ACTIONS = frozenset(DealChange.Action.values)
_SNAPSHOT_TEXT = ("contract", "petit_au_bout", "chelem")


def _history_player(value: object, players: dict[str, str]) -> str:
    if not isinstance(value, str) or name_key(value) not in players:
        raise _fail("history", "not_a_player", "%(name)s is not one of the players", name=value)
    return players[name_key(value)]


def _read_snapshot(value: object, players: dict[str, str]) -> dict[str, Any] | None:
    """A history entry's before/after, rebuilt key by key: what the history page can show."""
    if value is None:
        return None
    data = _object(value, "history")
    bad = _fail(
        "history", "not_change", "%(value)s is not a change of a deal", value=repr(data)[:60]
    )
    one = {
        key: None if data.get(key) is None else _history_player(data[key], players)
        for key in ("dealer", "taker", "partner")
    }
    lists = {
        key: [_history_player(name, players) for name in _list(data.get(key), "history")]
        for key in ("present", "seated")
    }
    texts = {key: data.get(key) or "" for key in _SNAPSHOT_TEXT}
    points, bouts = data.get("points"), data.get("bouts")
    poignees = _list(data.get("poignees"), "history")
    stakes = _object(data.get("stakes") or {}, "history")
    paper = data.get("paper")
    if (
        not all(isinstance(text, str) and len(text) <= 20 for text in texts.values())
        or not (points is None or (isinstance(points, str) and _decimal_text(points)))
        or not (bouts is None or (isinstance(bouts, int) and 0 <= bouts <= 3))
        or not all(isinstance(kind, str) and len(kind) <= 20 for kind in poignees)
        or not all(parse_count(key, maximum=21) for key in stakes)  # trumps 1 to 21
        or not (paper is None or isinstance(paper, dict))
        or not isinstance(data.get("passed", False), bool)
    ):
        raise bad
    if paper is not None and not all(
        isinstance(score, int) and not isinstance(score, bool) for score in paper.values()
    ):
        raise bad
    return {
        **one,
        **lists,
        **texts,
        "created_by": None,
        "passed": data.get("passed", False),
        "bouts": bouts,
        "points": points,
        "poignees": list(poignees),
        "stakes": {key: _history_player(name, players) for key, name in stakes.items()},
        "paper": None
        if paper is None
        else {_history_player(name, players): score for name, score in paper.items()},
        **_read_miseres(data, players),
    }


def _read_miseres(data: dict[str, Any], players: dict[str, str]) -> dict[str, Any]:
    """A snapshot's misères, by name (no key when there are none, as the app writes it)."""
    names = _list(data.get("miseres"), "history")
    return {"miseres": [_history_player(n, players) for n in names]} if names else {}


def _decimal_text(text: str) -> bool:
    try:
        return len(text) <= 8 and Decimal(text).is_finite()
    except ArithmeticError:
        return False


def _read_history(value: object, players: dict[str, str]) -> list[dict[str, Any]]:
    """A deal's history entries, checked: actions, moments, members and snapshots by name."""
    entries = []
    for raw in _list(value, "history"):
        raw = _object(raw, "history")
        action = raw.get("action")
        if action not in _CHANGE_ACTIONS:
            raise _fail(
                "history",
                "not_change",
                "%(value)s is not a change of a deal",
                value=repr(action)[:60],
            )
        at = _moment(raw.get("at"), "history")
        by = raw.get("by")
        if by is not None and (not isinstance(by, str) or len(by) > 254):
            raise _fail(
                "history", "not_email", "%(value)s is not an e-mail address", value=repr(by)[:60]
            )
        entries.append(
            {
                "action": action,
                "at": _stamp(at or timezone.now()),
                "by": by,
                "before": _read_snapshot(raw.get("before"), players),
                "after": _read_snapshot(raw.get("after"), players),
            }
        )
    return entries


def _read_game(data: object, players: dict[str, str], rules: HouseRules = FFT_RULES) -> ArchiveGame:
    data = _object(data, "game")
    kind = data.get("kind", "tarot")
    seats_data = _list(data.get("seats"), "seats")
    seats: list[tuple[str, bool]] = []
    for seat in seats_data:
        seat = _object(seat, "seats")
        name = seat.get("player")
        if not isinstance(name, str) or name_key(name) not in players:
            raise _fail("seats", "not_a_player", "%(name)s is not one of the players", name=name)
        seats.append((players[name_key(name)], seat.get("present", True) is not False))
    names = [name for name, _present in seats]
    raw_deals = _list(data.get("deals"), "deals")
    bare, absent, created, history = [], [], [], []
    for number, raw in enumerate(raw_deals, start=1):
        raw = _object(raw, "deal")
        try:
            away = [
                players.get(name_key(n), n) if isinstance(n, str) else n
                for n in _list(raw.get("absent"), "absent")
            ]
            for name in away:
                if name not in names:
                    raise _fail(
                        "absent", "not_a_player", "%(name)s is not one of the players", name=name
                    )
            created.append(_moment(raw.get("created_at"), "created_at"))
        except ScoringError as error:
            raise error.with_deal(number) from None
        absent.append(away)
        history.append(_read_history(raw.get("history"), players))
        bare.append({key: value for key, value in raw.items() if key not in DEAL_EXTRA_KEYS})
    sheet_data: dict[str, Any] = {"version": 2, "game": kind, "players": names, "deals": bare}
    if kind == Game.Kind.ESCOPETTE:
        sheet_data["target"] = data.get("target")
    elif rules != FFT_RULES:
        sheet_data.update(version=3, rules=rules.to_data())
    sheet = parse_sheet(sheet_data)
    scores = deal_scores(sheet.game, sheet.players, sheet.target, sheet.deals, sheet.rules)
    dealers = dealer_rotation(sheet.players, sheet.deals, sheet.dealers)  # missing: in turn
    first = data.get("first_dealer", names[0] if names else None)
    if not isinstance(first, str) or first not in names:
        raise _fail(
            "first_dealer", "not_a_player", "%(name)s is not one of the players", name=first
        )
    five_mode = data.get("five_mode", Game.FiveMode.FIVE)
    if five_mode not in Game.FiveMode.values:
        raise _fail(
            "five_mode",
            "not_five_mode",
            "%(value)s is not a way to play with five (%(options)s)",
            value=repr(five_mode),
            options=", ".join(Game.FiveMode.values),
        )
    deals = []
    for deal, dealer, deal_score, away in zip(sheet.deals, dealers, scores, absent, strict=True):
        present = tuple(name for name in names if name not in away)
        deals.append(
            DealPlan(
                inputs=deal,
                dealer=dealer,
                scores=deal_score,
                present=present,
                paper=isinstance(deal, PaperDeal),
            )
        )
    plan = GamePlan(
        kind=kind,
        target=sheet.target,
        five_mode=five_mode,
        first_dealer=first,
        seats=seats,
        deals=deals,
        digest=content_digest(sheet),
        rules=sheet.rules,
    )
    return ArchiveGame(plan=plan, created=created, history=history)


def read_archive(text: str | bytes, *, max_deals: int | None = None) -> Archive:
    """Check a whole archive (a ScoringError says where the first mistake is)."""
    try:
        raw = text.decode("utf-8") if isinstance(text, bytes) else text
        data = json.loads(raw.removeprefix(BOM))
    except UnicodeDecodeError:
        raise _fail("archive", "not_utf8", "not valid UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise json_error(error) from None
    except (ValueError, RecursionError):
        raise _fail("archive", "json_deep", "not valid JSON: nested too deeply") from None
    data = _object(data, "archive")
    if data.get("format") != FORMAT:
        raise _fail("format", "not_archive", "this is not a club archive of this app")
    if data.get("version") != VERSION:
        raise _fail(
            "version",
            "version",
            "%(value)s is not a version this app reads (1 to %(latest)s)",
            value=repr(data.get("version")),
            latest=VERSION,
        )
    club = _object(data.get("club"), "club")
    name = clean_place(club.get("name"), "club")
    if not name:
        raise _fail("club", "empty", "cannot be empty")
    members = []
    for member in _list(data.get("members"), "members"):
        member = _object(member, "members")
        role = member.get("role", Membership.Role.MEMBER)
        if role not in Membership.Role.values:
            role = Membership.Role.MEMBER
        members.append(
            (
                _email(member.get("email"), "members"),
                role,
                _moment(member.get("joined_at"), "members"),
            )
        )
    _once([email for email, _role, _at in members], "members")
    if sum(role == Membership.Role.OWNER for _email_, role, _at in members) > 1:
        raise _fail("members", "two_owners", "a club has one owner")
    invitations = []
    for invitation in _list(data.get("invitations"), "invitations"):
        invitation = _object(invitation, "invitations")
        invitations.append(
            (
                _email(invitation.get("email"), "invitations"),
                _moment(invitation.get("created_at"), "invitations"),
            )
        )
    _once([email for email, _at in invitations], "invitations")
    players: list[tuple[str, bool, str | None, dt.datetime | None]] = []
    by_key: dict[str, str] = {}
    for player in _list(data.get("players"), "players"):
        player = _object(player, "players")
        player_name = clean_name(player.get("name"))
        if name_key(player_name) in by_key:
            raise _fail(
                "players",
                "same_player",
                "%(first)s and %(second)s are the same player",
                first=by_key[name_key(player_name)],
                second=player_name,
            )
        by_key[name_key(player_name)] = player_name
        member = player.get("member")
        players.append(
            (
                player_name,
                player.get("retired") is True,
                _email(member, "players") if member is not None else None,
                _moment(player.get("created_at"), "players"),
            )
        )
    seasons = []
    for season in _list(data.get("seasons"), "seasons"):
        season = _object(season, "seasons")
        start, end = (
            clean_date(season.get("start"), "seasons"),
            clean_date(season.get("end"), "seasons"),
        )
        if end < start:
            raise _fail("seasons", "season_dates", "the last day cannot come before the first day")
        seasons.append((clean_season_name(season.get("name"), "seasons"), start, end))
    _once([f"{start} – {end}" for _name, start, end in seasons], "seasons")
    evenings = []
    count = 0
    for number, evening in enumerate(_list(data.get("evenings"), "evenings"), start=1):
        try:
            evening = _object(evening, "evening")
            item = ArchiveEvening(
                date=clean_date(evening.get("date")),
                place=clean_place(evening.get("place")),
                created_at=_moment(evening.get("created_at"), "date"),
                closed_at=_moment(evening.get("closed_at"), "date"),
                rules=read_rules(evening),
            )
            for game_number, game in enumerate(_list(evening.get("games"), "games"), start=1):
                try:
                    item.games.append(_read_game(game, by_key, rules_from_data(item.rules)))
                    item.games[-1].plan.digest = dated_digest(item.games[-1].plan.digest, item.date)
                except ScoringError as error:
                    raise _where(error, game=game_number) from None
                count += len(item.games[-1].plan.deals)
                if max_deals is not None and count > max_deals:
                    raise _fail(
                        "archive",
                        "too_many_deals",
                        "%(count)s deals: one import takes at most %(limit)s",
                        count=f"{count}+",
                        limit=max_deals,
                    )
        except ScoringError as error:
            raise _where(error, evening=number) from None
        evenings.append(item)
    return Archive(
        name=name,
        rules=read_rules(club),
        created_at=_moment(club.get("created_at"), "club"),
        members=members,
        invitations=invitations,
        players=players,
        seasons=seasons,
        evenings=evenings,
    )


def archive_import(*, archive: Archive, owner: User | None, restore_members: bool) -> Club:
    """The archive as a new club. ``restore_members``: accounts and memberships as archived
    (the command, run by the site's admin); otherwise ``owner`` owns the new club and the
    archived members are invited again (the owner's upload)."""
    with transaction.atomic():
        club = Club.objects.create(
            name=archive.name, created_at=archive.created_at or timezone.now(), rules=archive.rules
        )
        users: dict[str, User] = {}
        if restore_members:
            emails = {email for email, _role, _at in archive.members}
            emails |= {p[2] for p in archive.players if p[2]}
            existing = {u.email: u for u in User.objects.filter(email__in=emails)}
            for email in sorted(emails):
                users[email] = existing.get(email) or User.objects.create_user(email)
            Membership.objects.bulk_create(
                Membership(club=club, user=users[email], role=role, joined_at=at or timezone.now())
                for email, role, at in archive.members
            )
            Invitation.objects.bulk_create(
                Invitation(club=club, email=email, created_at=at or timezone.now())
                for email, at in archive.invitations
            )
        else:
            if owner is None:
                raise ValueError("an owner is needed")
            Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
            users[owner.email] = owner
            invited = {email for email, _role, _at in archive.members} | {
                email for email, _at in archive.invitations
            }
            Invitation.objects.bulk_create(
                Invitation(club=club, email=email, invited_by=owner)
                for email in sorted(invited - {owner.email})
            )
        players = Player.objects.bulk_create(
            Player(
                club=club,
                name=name,
                retired=retired,
                user=users.get(member) if member else None,
                created_at=created or timezone.now(),
            )
            for name, retired, member, created in archive.players
        )
        by_name = {player.name: player for player in players}
        if any(player.pk is None for player in players):
            by_name = {p.name: p for p in Player.objects.filter(club=club)}
        Season.objects.bulk_create(
            Season(club=club, name=name, start=start, end=end)
            for name, start, end in archive.seasons
        )
        history: list[tuple[Deal, list[Any]]] = []
        for item in archive.evenings:
            evening = Evening.objects.create(
                club=club,
                date=item.date,
                place=item.place,
                created_at=item.created_at or timezone.now(),
                closed_at=item.closed_at,
                rules=item.rules,
            )
            for number, game in enumerate(item.games, start=1):
                _game, deals = store_game(
                    evening=evening,
                    number=number,
                    plan=game.plan,
                    players=by_name,
                    created_by=None,
                    created_at=game.created,
                )
                history.extend(
                    (deal, entries)
                    for deal, entries in zip(deals, game.history, strict=True)
                    if entries
                )
        if history:
            store_history(history)
        covered = list(Season.objects.filter(club=club).values_list("start", "end"))
        for item in archive.evenings:
            if not any(start <= item.date <= end for start, end in covered):
                season = season_ensure_for(club=club, date=item.date)
                covered.append((season.start, season.end))
    return club


def refusal_text(error: ScoringError) -> str:
    """The error in the reader's language, with where it is in the archive."""
    place = getattr(error, "archive_place", {})
    text = error_text(error, evening=place.get("evening"))
    return text
