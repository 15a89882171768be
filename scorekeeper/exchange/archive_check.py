"""The club archive's small checks (JSON shapes, moments, addresses, a deal's history), each
raising a coded ``ScoringError`` naming the field."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

from accounts.addresses import canonical_email
from scorekeeper.models import DealChange
from scorekeeper.scoring.club_figures import check_scale
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.inputs import clean_date, clean_place, name_key
from scorekeeper.scoring.sheet_json import not_a_player
from scorekeeper.server.parsing import parse_count

FORMAT = "scorekeeper-club-archive"
VERSION = 1
ARCHIVE_MAX_DEALS = 20_000  # what one upload on the owner's page may bring in
ARCHIVE_MAX_INVITATIONS = 100  # the members and invitations an upload invites again
DEAL_EXTRA_KEYS = ("absent", "created_at", "history")
CHANGE_ACTIONS = frozenset(DealChange.Action.values)
SNAPSHOT_TEXT = ("contract", "petit_au_bout", "chelem")


def fail(field: str, code: str, template: str, **params: Any) -> ScoringError:
    return ScoringError.coded(field, code, template, **params)


def where(error: ScoringError, **place: int) -> ScoringError:
    """Say where in the archive: evening N (game M)."""
    error.archive_place = {**getattr(error, "archive_place", {}), **place}  # type: ignore[attr-defined]
    return error


def json_object(value: object, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise fail(field, "not_object", "%(value)s is not a JSON object", value=repr(value)[:60])
    return value


def json_list(value: object, field: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise fail(field, "not_list", "%(value)s is not a list", value=repr(value)[:60])
    return value


def once(values: list[str], field: str) -> None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise fail(field, "listed_twice", "%(name)s is listed twice", name=value)
        seen.add(value)


def moment(value: object, field: str) -> dt.datetime | None:
    if value is None:
        return None
    try:
        at = dt.datetime.fromisoformat(str(value))
    except ValueError:
        raise fail(
            field, "not_date", "%(value)s is not a date (YYYY-MM-DD)", value=repr(value)[:60]
        ) from None
    clean_date(at.date(), field)
    return at if timezone.is_aware(at) else timezone.make_aware(at, dt.UTC)


def stamp(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def evening_points_data(enabled: bool, scale: object) -> dict[str, Any]:
    """The club's evening ranking points as the archive writes them (in its ``club``)."""
    return {"evening_points": bool(enabled), "evening_points_scale": list(scale or ())}


def read_evening_points(club: dict[str, Any]) -> tuple[bool, tuple[int, ...] | None]:
    """The club's evening ranking points (on or off) and their scale; an archive written
    before they existed has neither: off, and the default scale (None)."""
    scale = club.get("evening_points_scale")
    return club.get("evening_points") is True, None if scale is None else check_scale(scale)


def email(value: object, field: str) -> str:
    if not isinstance(value, str) or "@" not in value or len(value) > 254:
        raise fail(field, "not_email", "%(value)s is not an e-mail address", value=repr(value)[:60])
    clean_place(value, field)  # no control characters
    return canonical_email(value)


def player_of(value: object, players: dict[str, str], field: str = "history") -> str:
    """The player a name in the archive stands for (``players``: names by name key)."""
    if not isinstance(value, str) or name_key(value) not in players:
        raise not_a_player(field, value)
    return players[name_key(value)]


def _decimal_text(text: str) -> bool:
    try:
        return len(text) <= 8 and Decimal(text).is_finite()
    except ArithmeticError:
        return False


def _snapshot_values_fit(data: dict[str, Any]) -> bool:
    points, bouts = data.get("points"), data.get("bouts")
    paper = data.get("paper")
    return (
        all(isinstance(data.get(key) or "", str) for key in SNAPSHOT_TEXT)
        and all(len(data.get(key) or "") <= 20 for key in SNAPSHOT_TEXT)
        and (points is None or (isinstance(points, str) and _decimal_text(points)))
        and (bouts is None or (isinstance(bouts, int) and 0 <= bouts <= 3))
        and all(isinstance(k, str) and len(k) <= 20 for k in json_list(data.get("poignees"), "h"))
        and all(parse_count(key, maximum=21) for key in json_object(data.get("stakes") or {}, "h"))
        and (paper is None or isinstance(paper, dict))
        and isinstance(data.get("passed", False), bool)
        and (
            paper is None
            or all(isinstance(s, int) and not isinstance(s, bool) for s in paper.values())
        )
    )


def read_snapshot(value: object, players: dict[str, str]) -> dict[str, Any] | None:
    """A history entry's before/after, rebuilt key by key: what the history page can show."""
    if value is None:
        return None
    data = json_object(value, "history")
    json_list(data.get("poignees"), "history")
    json_object(data.get("stakes") or {}, "history")
    if not _snapshot_values_fit(data):
        raise fail(
            "history", "not_change", "%(value)s is not a change of a deal", value=repr(data)[:60]
        )
    paper = data.get("paper")
    return {
        **{
            key: None if data.get(key) is None else player_of(data[key], players)
            for key in ("dealer", "taker", "partner")
        },
        **{
            key: [player_of(name, players) for name in json_list(data.get(key), "history")]
            for key in ("present", "seated")
        },
        **{key: data.get(key) or "" for key in SNAPSHOT_TEXT},
        "created_by": None,
        "passed": data.get("passed", False),
        "bouts": data.get("bouts"),
        "points": data.get("points"),
        "poignees": list(json_list(data.get("poignees"), "history")),
        "stakes": {
            key: player_of(name, players) for key, name in (data.get("stakes") or {}).items()
        },
        "paper": None
        if paper is None
        else {player_of(name, players): score for name, score in paper.items()},
        **_read_miseres(data, players),
    }


def _read_miseres(data: dict[str, Any], players: dict[str, str]) -> dict[str, Any]:
    """A snapshot's misères, by name (no key when there are none, as the app writes it)."""
    names = json_list(data.get("miseres"), "history")
    return {"miseres": [player_of(n, players) for n in names]} if names else {}


def read_history(value: object, players: dict[str, str]) -> list[dict[str, Any]]:
    """A deal's history entries, checked: actions, moments, authors and snapshots by name."""
    entries = []
    for raw in json_list(value, "history"):
        raw = json_object(raw, "history")
        action = raw.get("action")
        if action not in CHANGE_ACTIONS:
            raise fail(
                "history",
                "not_change",
                "%(value)s is not a change of a deal",
                value=repr(action)[:60],
            )
        at = moment(raw.get("at"), "history")
        by = raw.get("by")
        if by is not None and (not isinstance(by, str) or len(by) > 254):
            raise fail(
                "history", "not_email", "%(value)s is not an e-mail address", value=repr(by)[:60]
            )
        entries.append(
            {
                "action": action,
                "at": stamp(at or timezone.now()),
                "by": by,
                "before": read_snapshot(raw.get("before"), players),
                "after": read_snapshot(raw.get("after"), players),
            }
        )
    return entries
