"""The club archive's tournaments, written and read back: settings, ``entrants`` and
``schedule`` by name (a duplicate's: its ``movement`` and ``players`` in its order), ``played``
rounds whose tables name their evening by its place in the archive's ``"evenings"`` and, in a
duplicate tournament, the ``cases`` of their deals as [deal number, case number] pairs. An
archive without the key has no tournaments.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.exchange.archive_check import (
    fail,
    json_list,
    json_object,
    moment,
    player_of,
    stamp,
)
from scorekeeper.models import Club, Deal, Evening, Tournament, TournamentTable
from scorekeeper.scoring.duplicate import DuplicateError, Movement
from scorekeeper.scoring.inputs import clean_date, clean_place
from scorekeeper.services.archive_tournaments import ArchiveTournament, ArchiveTournamentRound
from scorekeeper.services.tournaments import MAX_DEALS_PER_ROUND, MAX_ROUNDS

MAX_TABLES = 200  # tables of one round an archive may bring


def tournaments_data(club: Club, evenings: Sequence[Evening], names: dict[int, str]) -> list[Any]:
    """The club's tournaments as JSON; ``evenings`` in the archive's order."""
    place = {evening.pk: index for index, evening in enumerate(evenings)}
    tables: dict[int, list[TournamentTable]] = {}
    for table in TournamentTable.objects.filter(round__tournament__club=club).select_related(
        "round"
    ):
        tables.setdefault(table.round_id, []).append(table)
    cases: dict[int, list[list[int]]] = {}
    for game_id, number, case in (
        Deal.objects.filter(game__tournament_table__round__tournament__club=club)
        .exclude(case_number=None)
        .order_by("number")
        .values_list("game_id", "number", "case_number")
    ):
        cases.setdefault(game_id, []).append([number, case])
    out = []
    for tournament in (
        Tournament.objects.filter(club=club)
        .prefetch_related("entrants", "tournament_rounds")
        .order_by("date", "pk")
    ):
        plan = tournament.schedule or {}
        schedule: dict[str, Any] = {}
        if plan.get("rounds"):
            schedule = {
                "players": [names[pk] for pk in plan.get("players") or [] if pk in names],
                "rounds": [
                    [[names[pk] for pk in table if pk in names] for table in tables_]
                    for tables_ in plan["rounds"]
                ],
                "searches": int(plan.get("searches") or 0),
            }
        if plan.get("movement"):
            entrants = {e.pk: names[e.player_id] for e in tournament.entrants.all()}
            schedule = {
                "movement": plan["movement"],
                "players": [entrants[pk] for pk in plan["players"]],
            }
        out.append(
            {
                "name": tournament.name,
                "date": tournament.date.isoformat(),
                "place": tournament.place,
                "rounds": tournament.rounds,
                "deals_per_round": tournament.deals_per_round,
                "allow_three": tournament.allow_three,
                "kind": tournament.kind,
                "method": tournament.method,
                "state": tournament.state,
                "created_at": stamp(tournament.created_at),
                "entrants": [
                    {
                        "player": names[entrant.player_id],
                        "guest": entrant.guest,
                        "present": entrant.present,
                        "registered_at": stamp(entrant.registered_at),
                    }
                    for entrant in sorted(tournament.entrants.all(), key=lambda e: e.pk)
                ],
                "schedule": schedule,
                "played": [
                    {
                        "number": played.number,
                        "started_at": stamp(played.started_at),
                        "closed_at": stamp(played.closed_at),
                        "tables": [
                            {"number": table.number, "evening": place[table.evening_id]}
                            | ({"cases": cases[table.game_id]} if table.game_id in cases else {})
                            for table in sorted(tables.get(played.pk, []), key=lambda t: t.number)
                        ],
                    }
                    for played in sorted(tournament.tournament_rounds.all(), key=lambda r: r.number)
                ],
            }
        )
    return out


def _whole(value: object, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(field, "not_whole", "%(value)s is not a whole number", value=repr(value)[:60])
    if not low <= value <= high:
        raise fail(field, "too_large", "%(value)s is far too large", value=repr(value)[:60])
    return value


def _schedule(value: object, players: dict[str, str]) -> dict[str, Any]:
    data = json_object(value or {}, "tournaments")
    if data.get("movement"):
        try:
            movement = Movement.from_json(json_object(data["movement"], "tournaments"))
        except DuplicateError as error:
            raise fail("tournaments", error.code, error.message) from None
        names = [
            player_of(n, players, "tournaments")
            for n in json_list(data.get("players"), "tournaments")
        ]
        if len(names) != movement.players or len(set(names)) != len(names):
            raise fail("tournaments", "bad_movement", "not a movement")
        return {"movement": movement.to_json(), "players": names}
    if not data.get("rounds"):
        return {}
    return {
        "players": [
            player_of(n, players, "tournaments")
            for n in json_list(data.get("players"), "tournaments")
        ],
        "rounds": [
            [
                [player_of(n, players, "tournaments") for n in json_list(table, "tournaments")]
                for table in json_list(tables, "tournaments")
            ]
            for tables in json_list(data.get("rounds"), "tournaments")
        ],
        "searches": _whole(data.get("searches", 0), "tournaments", 0, 10**6),
    }


def _rounds(value: object, evenings: Sequence[int], used: set[int]) -> list[ArchiveTournamentRound]:
    """The rounds played; ``evenings`` holds how many games each archived evening has."""
    rounds = []
    for raw in json_list(value, "tournaments"):
        raw = json_object(raw, "tournaments")
        tables = []
        cases: dict[int, list[tuple[int, int]]] = {}
        for table in json_list(raw.get("tables"), "tournaments"):
            table = json_object(table, "tournaments")
            number = _whole(table.get("number"), "tournaments", 1, MAX_TABLES)
            cases[number] = _cases(table.get("cases", []))
            index = _whole(table.get("evening"), "evenings", 0, max(len(evenings) - 1, 0))
            if index >= len(evenings) or evenings[index] != 1:
                raise fail("evenings", "not_game", "%(value)s is not a game", value=index)
            if index in used:
                raise fail("evenings", "twice", "%(name)s appears twice", name=index)
            used.add(index)
            tables.append((number, index))
        if len({number for number, _index in tables}) != len(tables):
            raise fail("tournaments", "twice", "%(name)s appears twice", name="table")
        rounds.append(
            ArchiveTournamentRound(
                number=_whole(raw.get("number"), "tournaments", 1, MAX_ROUNDS),
                started_at=moment(raw.get("started_at"), "tournaments"),
                closed_at=moment(raw.get("closed_at"), "tournaments"),
                tables=tables,
                cases={number: pairs for number, pairs in cases.items() if pairs},
            )
        )
    if len({r.number for r in rounds}) != len(rounds):
        raise fail("tournaments", "twice", "%(name)s appears twice", name="round")
    return rounds


def _cases(value: object) -> list[tuple[int, int]]:
    """A duplicate table's [deal number, case number] pairs."""
    pairs = []
    for pair in json_list(value, "tournaments"):
        pair = json_list(pair, "tournaments")
        if len(pair) != 2:
            raise fail("tournaments", "not_case", "%(value)s is not a deal and its case",
                       value=repr(pair)[:60])  # fmt: skip
        pairs.append(
            (_whole(pair[0], "tournaments", 1, 10**6), _whole(pair[1], "tournaments", 1, 9999))
        )
    return pairs


def _tournament(
    raw: object, players: dict[str, str], evenings: Sequence[int], used: set[int]
) -> ArchiveTournament:
    data = json_object(raw, "tournaments")
    state = data.get("state", Tournament.State.FINISHED)
    if state not in Tournament.State.values:
        state = Tournament.State.FINISHED
    kind = data.get("kind", Tournament.Kind.FREE)
    method = data.get("method", Tournament.Method.MATCH_POINTS)
    if kind not in Tournament.Kind.values or method not in Tournament.Method.values:
        raise fail(
            "tournaments",
            "not_kind",
            "%(value)s is not a kind of tournament",
            value=repr((kind, method))[:60],
        )
    entrants = []
    for entrant in json_list(data.get("entrants"), "tournaments"):
        entrant = json_object(entrant, "tournaments")
        entrants.append(
            (
                player_of(entrant.get("player"), players, "tournaments"),
                entrant.get("guest") is True,
                entrant.get("present", True) is not False,
                moment(entrant.get("registered_at"), "tournaments"),
            )
        )
    if len({name for name, *_rest in entrants}) != len(entrants):
        raise fail("tournaments", "twice", "%(name)s appears twice", name="entrant")
    name = clean_place(data.get("name"), "tournaments")
    if not name:
        raise fail("tournaments", "empty", "cannot be empty")
    return ArchiveTournament(
        name=name[:80],
        date=clean_date(data.get("date"), "tournaments"),
        place=clean_place(data.get("place"), "tournaments")[:80],
        rounds=_whole(data.get("rounds"), "tournaments", 1, MAX_ROUNDS),
        deals_per_round=_whole(data.get("deals_per_round"), "tournaments", 1, MAX_DEALS_PER_ROUND),
        allow_three=data.get("allow_three") is True,
        kind=kind,
        method=method,
        state=state,
        created_at=moment(data.get("created_at"), "tournaments"),
        entrants=entrants,
        schedule=_schedule(data.get("schedule"), players),
        played=_rounds(data.get("played"), evenings, used),
    )


def read_tournaments(
    data: dict[str, Any], players: dict[str, str], games_per_evening: Sequence[int]
) -> list[ArchiveTournament]:
    """The archive's tournaments, checked; ``games_per_evening`` in the archive's order."""
    used: set[int] = set()
    tournaments = []
    for raw in json_list(data.get("tournaments"), "tournaments"):
        tournaments.append(_tournament(raw, players, games_per_evening, used))
    return tournaments
