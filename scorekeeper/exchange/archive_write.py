"""The club archive out: one JSON file with everything a club owns.

``{"format": "scorekeeper-club-archive", "version": 1, "club", "members", "invitations",
"players", "seasons", "evenings", "tournaments"}``: players by name, members by e-mail, no
database id (restored and exported again, the same file); house rules only where not FFT.
A game is a deal sheet with its table (``seats``, ``five_mode``, ``first_dealer``); each deal
adds its ``dealer``, ``absent``, ``created_at`` and ``history`` (:func:`history_of`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from scorekeeper.exchange.archive_check import FORMAT, VERSION, evening_points_data, stamp
from scorekeeper.exchange.archive_rules import with_rules
from scorekeeper.exchange.archive_tournaments import tournaments_data
from scorekeeper.exchange.game_data import GameData, load_games
from scorekeeper.models import Club, Deal, DealChange, Evening, Game, Player, stored_inputs
from scorekeeper.reads.club_figures import player_names
from scorekeeper.scoring.inputs import name_key
from scorekeeper.scoring.sheet import Sheet, sheet_to_data
from scorekeeper.services.archives import snapshot_by


def history_of(deals: Sequence[Deal]) -> dict[int, list[dict[str, Any]]]:
    """Each deal's change history (``DealChange``) as JSON-ready entries, by deal id."""
    if not deals:
        return {}
    names = player_names(deals[0].game.evening.club_id)
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
                "at": stamp(change.at),
                "by": change.by.email if change.by is not None else None,
                "before": snapshot_by(change.before, by_id.__getitem__),
                "after": snapshot_by(change.after, by_id.__getitem__),
            }
        )
    return history


def _deal_data(deal: Deal, data: GameData, names: dict[int, str], history: Any) -> Any:
    game = data.game
    seats = list(game.seats.all())
    players = tuple(names[seat.player_id] for seat in seats)
    inputs = stored_inputs(deal, game.kind, key=names.__getitem__)
    one = Sheet(game=game.kind, players=players, target=game.target, deals=(inputs,))
    entry = sheet_to_data(one)["deals"][0]
    entry["dealer"] = names[deal.dealer_id]
    at_table = {score.player_id for score in deal.scores.all()}
    absent = [names[seat.player_id] for seat in seats if seat.player_id not in at_table]
    if absent:
        entry["absent"] = absent
    entry["created_at"] = stamp(deal.created_at)
    if history.get(deal.pk):
        entry["history"] = history[deal.pk]
    return entry


def _game_data(data: GameData, names: dict[int, str], history: dict[int, list[Any]]) -> Any:
    game = data.game
    result: dict[str, Any] = {"number": game.number, "kind": game.kind}
    if game.kind == Game.Kind.ESCOPETTE:
        result["target"] = game.target
    result["five_mode"] = game.five_mode
    result["first_dealer"] = names[game.first_dealer_id]
    result["seats"] = [
        {"player": names[seat.player_id], "present": seat.present} for seat in game.seats.all()
    ]
    result["deals"] = [_deal_data(deal, data, names, history) for deal in data.deals]
    return result


def _people(club: Club) -> dict[str, Any]:
    members = club.memberships.select_related("user").order_by("user__email")
    players = Player.objects.filter(club=club).select_related("user")
    return {
        "members": [
            {"email": m.user.email, "role": m.role, "joined_at": stamp(m.joined_at)}
            for m in members
        ],
        "invitations": [
            {"email": i.email, "created_at": stamp(i.created_at)}
            for i in club.invitations.order_by("email")
        ],
        "players": [
            {
                "name": p.name,
                "retired": p.retired,
                "member": p.user.email if p.user else None,
                "created_at": stamp(p.created_at),
                **({"licence": p.licence} if p.licence else {}),
            }
            for p in sorted(players, key=lambda p: (name_key(p.name), p.pk))
        ],
    }


def club_archive(club: Club) -> dict[str, Any]:
    """Everything the club owns, as the archive's JSON object."""
    names = player_names(club.pk)
    games = load_games(Evening.objects.filter(club=club))
    history = history_of([deal for data in games for deal in data.deals])
    by_evening: dict[int, list[Any]] = {}
    for data in games:
        by_evening.setdefault(data.evening.pk, []).append(_game_data(data, names, history))
    evenings = list(Evening.objects.filter(club=club).order_by("date", "pk"))
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {
            "name": club.name,
            "created_at": stamp(club.created_at),
            **evening_points_data(club.evening_points, club.evening_points_scale),
            **with_rules(club),
        },
        **_people(club),
        "seasons": [
            {"name": s.name, "start": s.start.isoformat(), "end": s.end.isoformat()}
            for s in club.seasons.order_by("start", "end", "pk")
        ],
        "evenings": [
            {
                "date": e.date.isoformat(),
                "place": e.place,
                "created_at": stamp(e.created_at),
                "closed_at": stamp(e.closed_at),
                **with_rules(e),
                "games": by_evening.get(e.pk, []),
            }
            for e in evenings
        ],
        "tournaments": tournaments_data(club, evenings, names),
    }


def dump_archive(club: Club) -> str:
    return json.dumps(club_archive(club), ensure_ascii=False, indent=1) + "\n"


def archive_filename(club: Club) -> str:
    return f"club-{club.pk}-{timezone.localdate().isoformat()}.json"
