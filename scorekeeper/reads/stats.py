"""The read side of seasons: standings, a player's figures, the series the charts draw.

Everything comes from database aggregation over the stored per-player scores (``DealScore``):
one query groups an evening's scores by player and by the kind of deal (the player's role,
made or not, contract, petit au bout, chelem, poignées), so a few rows stand for many deals.
Those per-evening figures are stored in the database (``EveningTally``) under the evening's
``version`` (which every change to its deals bumps), so a season adds up its evenings and,
after a deal is saved, only that evening is aggregated again; a season's sums are kept in
the shared cache (Redis with several workers or machines) under a one-row fingerprint of its
evenings. No figure lives in one process only: a restart, another worker or another machine
reads the same. A page makes the same few queries whatever the number of deals, evenings or
players.

The games are kept apart (``kind``): French Tarot by default; L'escopette has its own
figures (points, deals, games played and won), aggregated by ``_aggregate_escopette``. The
``*_by_kind`` functions read both with the queries of one: a season without L'escopette
costs nothing more.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import astuple, dataclass, field
from typing import Any

from django.core.cache import cache
from django.db import connections
from django.db.models import (
    BooleanField,
    Case,
    CharField,
    Count,
    Exists,
    F,
    Max,
    Min,
    OuterRef,
    Q,
    Sum,
    Value,
    When,
)
from django.utils.translation import gettext_lazy as _

from scorekeeper.models import (
    Club,
    Deal,
    DealScore,
    Evening,
    EveningTally,
    Game,
    Player,
    Season,
)
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import EscopetteDeal, escopette_game
from scorekeeper.scoring.tarot import TARGETS
from scorekeeper.server import shared_cache

TAROT = Game.Kind.TAROT
ESCOPETTE = Game.Kind.ESCOPETTE
KINDS = (TAROT, ESCOPETTE)

CONTRACT_LABELS = dict(Deal.Contract.choices)
POIGNEE_LABELS = {
    "simple": _("Simple poignée"),
    "double": _("Double poignée"),
    "triple": _("Triple poignée"),
}
CHELEM_MADE = ("announced", "unannounced")

# --- What each stored score was, as the database sees it ---------------------------------------

OUT, PASSED, TAKER, PARTNER, DEFENCE = "out", "passed", "taker", "partner", "defence"


def _made() -> Q:
    """The contract was made: the attack's points reached the target for its bouts."""
    made = Q()
    for bouts, target in TARGETS.items():
        made |= Q(deal__bouts=bouts, deal__points__gte=target)
    return made


ROLE = Case(
    When(seated=False, then=Value(OUT)),
    When(deal__passed=True, then=Value(PASSED)),
    When(deal__paper=True, then=Value(PASSED)),  # scores only: in totals, not in statistics
    When(deal__taker_id=F("player_id"), then=Value(TAKER)),
    When(deal__partner_id=F("player_id"), then=Value(PARTNER)),
    default=Value(DEFENCE),
    output_field=CharField(),
)
MADE = Case(When(_made(), then=Value(True)), default=Value(False), output_field=BooleanField())


@dataclass
class Tally:
    """One player's figures over some deals: an evening, a season, all time."""

    total: int = 0
    deals: int = 0  # deals played: seated, not passed
    takes: int = 0
    made: int = 0
    called: int = 0  # as the called partner (5 players), the taker not alone
    called_made: int = 0
    called_points: int = 0
    petit_won: int = 0  # the petit au bout went to the player's side
    petit_lost: int = 0
    chelem_won: int = 0
    chelem_lost: int = 0
    chelem_failed: int = 0  # announced by the player's attack, and failed
    contracts: dict[str, list[int]] = field(default_factory=dict)  # taken, made, points
    poignees: dict[str, list[int]] = field(default_factory=dict)  # to the side, against
    games: int = 0  # L'escopette: games played
    won: int = 0  # L'escopette: games won
    unreplayable: int = 0  # L'escopette: games the rules cannot replay (no winner counted)

    def add(self, other: Tally) -> None:
        self.total += other.total
        self.deals += other.deals
        self.games += other.games
        self.won += other.won
        self.unreplayable += other.unreplayable
        self.takes += other.takes
        self.made += other.made
        self.called += other.called
        self.called_made += other.called_made
        self.called_points += other.called_points
        self.petit_won += other.petit_won
        self.petit_lost += other.petit_lost
        self.chelem_won += other.chelem_won
        self.chelem_lost += other.chelem_lost
        self.chelem_failed += other.chelem_failed
        for key, (taken, made, points) in other.contracts.items():
            line = self.contracts.get(key)
            if line is None:
                self.contracts[key] = [taken, made, points]
            else:
                line[0] += taken
                line[1] += made
                line[2] += points
        for key, (won, lost) in other.poignees.items():
            pair = self.poignees.get(key)
            if pair is None:
                self.poignees[key] = [won, lost]
            else:
                pair[0] += won
                pair[1] += lost

    def count(self, line: dict[str, Any]) -> None:
        """Add one group of the aggregation: ``n`` scores of the same kind of deal."""
        n, points, role, made = line["n"], line["points"], line["role"], line["made"]
        self.total += points
        if role in (OUT, PASSED):
            return
        self.deals += n
        attack = role in (TAKER, PARTNER)
        if role == TAKER:
            self.takes += n
            self.made += n if made else 0
            contract = self.contracts.setdefault(line["contract"], [0, 0, 0])
            contract[0] += n
            contract[1] += n if made else 0
            contract[2] += points
        elif role == PARTNER:
            self.called += n
            self.called_made += n if made else 0
            self.called_points += points
        petit = line["petit_au_bout"]
        if petit:
            if (petit == "attack") == attack:
                self.petit_won += n
            else:
                self.petit_lost += n
        chelem = line["chelem"]
        if chelem in CHELEM_MADE:
            self.chelem_won += n if attack else 0
            self.chelem_lost += 0 if attack else n
        elif chelem == "defense":
            self.chelem_won += 0 if attack else n
            self.chelem_lost += n if attack else 0
        elif chelem == "announced_failed" and attack:
            self.chelem_failed += n
        won = made == attack  # a poignée goes to the side that wins the deal
        for kind in line["poignees"] or ():
            pair = self.poignees.setdefault(kind, [0, 0])
            pair[0 if won else 1] += n


@dataclass(frozen=True)
class EveningSummary:
    """One evening's figures: a tally per player, and the deals (and games) played."""

    tallies: dict[int, Tally]
    played: int
    games: int = 0  # L'escopette's games with at least one deal
    unreplayable: int = 0  # L'escopette's games whose stored deals the rules refuse


# --- The per-evening figures, stored under the evening's version --------------------------------

SEASON_SECONDS = 7 * 86400  # a season's sums in the cache (a new fingerprint, a new key)


def clear_memo() -> None:
    """Forget the season sums kept in the caches (tests). The stored evening figures stay:
    they are read again only while their version is the evening's."""
    shared_cache.forget_local()
    cache.clear()


def _encode(summary: EveningSummary) -> dict[str, list[Any]]:
    return {str(player_id): list(astuple(tally)) for player_id, tally in summary.tallies.items()}


def _decode(tallies: dict[str, list[Any]]) -> dict[int, Tally]:
    return {int(player_id): Tally(*values) for player_id, values in tallies.items()}


@dataclass(frozen=True)
class EveningRef:
    """An evening as the season sees it: its identity and version, its date and place."""

    evening_id: int
    date: dt.date
    place: str
    created_at: dt.datetime
    version: int


def _database() -> str:
    return str(connections["default"].settings_dict["NAME"])


def _aggregate(refs: Sequence[EveningRef], kind: str) -> dict[int, EveningSummary]:
    """One query: the scores of these evenings grouped by evening, player and kind of deal."""
    ids = [ref.evening_id for ref in refs]
    scores = DealScore.objects.filter(deal__game__kind=kind)
    if len(ids) == 1:
        scores = scores.filter(deal__game__evening_id=ids[0])
    else:
        scores = scores.filter(deal__game__evening_id__in=ids)
    lines = (
        scores.values(
            "player_id",
            "deal__contract",
            "deal__petit_au_bout",
            "deal__chelem",
            "deal__poignees",
            evening=F("deal__game__evening_id"),
            role=ROLE,
            made=MADE,
        )
        .annotate(n=Count("pk"), points=Sum("score"))
        .order_by()
    )
    tallies: dict[int, dict[int, Tally]] = {evening_id: {} for evening_id in ids}
    played = dict.fromkeys(ids, 0)
    for line in lines:
        line["contract"] = line["deal__contract"]
        line["petit_au_bout"] = line["deal__petit_au_bout"]
        line["chelem"] = line["deal__chelem"]
        line["poignees"] = line["deal__poignees"]
        evening = line["evening"]
        tally = tallies[evening].get(line["player_id"])
        if tally is None:
            tally = tallies[evening][line["player_id"]] = Tally()
        tally.count(line)
        if line["role"] == TAKER:
            played[evening] += line["n"]
    return {
        evening_id: EveningSummary(tallies=tallies[evening_id], played=played[evening_id])
        for evening_id in ids
    }


def _aggregate_escopette(refs: Sequence[EveningRef]) -> dict[int, EveningSummary]:
    """Two queries (one when there is no game of L'escopette): the scores, then the stakes.

    The scores are grouped by game and player; the winner of each game comes from its
    deals' stored stakes, played again in order by the scoring service.
    """
    ids = [ref.evening_id for ref in refs]
    scores = DealScore.objects.filter(seated=True, deal__game__kind=ESCOPETTE)
    deals = Deal.objects.filter(game__kind=ESCOPETTE)
    if len(ids) == 1:
        scores = scores.filter(deal__game__evening_id=ids[0])
        deals = deals.filter(game__evening_id=ids[0])
    else:
        scores = scores.filter(deal__game__evening_id__in=ids)
        deals = deals.filter(game__evening_id__in=ids)
    lines = (
        scores.values("player_id", game=F("deal__game_id"), evening=F("deal__game__evening_id"))
        .annotate(n=Count("pk"), points=Sum("score"))
        .order_by()
    )
    tallies: dict[int, dict[int, Tally]] = {evening_id: {} for evening_id in ids}
    played = dict.fromkeys(ids, 0)
    games = dict.fromkeys(ids, 0)
    unreplayable = dict.fromkeys(ids, 0)
    seated: dict[int, list[int]] = {}  # game id -> its players
    evening_of: dict[int, int] = {}  # game id -> its evening
    for line in lines:
        evening, game = line["evening"], line["game"]
        tally = tallies[evening].setdefault(line["player_id"], Tally())
        tally.total += line["points"]
        tally.deals += line["n"]
        tally.games += 1
        seated.setdefault(game, []).append(line["player_id"])
        evening_of[game] = evening
    if not seated:  # no game of L'escopette in these evenings: no stakes to read
        return {evening_id: EveningSummary(tallies={}, played=0) for evening_id in ids}
    stakes: dict[int, list[EscopetteDeal[int]]] = {}
    targets: dict[int, int] = {}
    for game, target, stake in deals.order_by("game_id", "number").values_list(
        "game_id", "game__target", "stakes"
    ):
        stakes.setdefault(game, []).append(
            EscopetteDeal(stakes={int(trump): winner for trump, winner in stake.items()})
        )
        targets[game] = target or 0
    for game, players in seated.items():
        evening = evening_of[game]
        played[evening] += len(stakes.get(game, []))
        games[evening] += 1
        try:
            result = escopette_game(sorted(players), targets.get(game, 0), stakes.get(game, []))
        except ScoringError:  # stored deals the scoring service refuses: no winner
            unreplayable[evening] += 1
            for player in players:
                tallies[evening][player].unreplayable += 1
            continue
        if result.winner is not None:
            tallies[evening][result.winner].won += 1
    return {
        evening_id: EveningSummary(
            tallies=tallies[evening_id],
            played=played[evening_id],
            games=games[evening_id],
            unreplayable=unreplayable[evening_id],
        )
        for evening_id in ids
    }


# Copies of stored figures in this process, under the evening's identity and version: a
# season changed by one deal reads that evening again, not all of them.
_copies = shared_cache.LocalMemo(4000)


def _copy_key(ref: EveningRef, kind: str) -> tuple[Hashable, ...]:
    return (_database(), kind, ref.evening_id, ref.created_at, ref.version)


def _stored(refs: Sequence[EveningRef], kind: str) -> dict[int, EveningSummary]:
    """The stored figures still at their evening's version (one query per 500 evenings)."""
    versions = {ref.evening_id: ref.version for ref in refs}
    found: dict[int, EveningSummary] = {}
    ids = list(versions)
    if not ids:
        return found
    for start in range(0, len(ids), 500):  # within every database's parameter limit
        rows = EveningTally.objects.filter(kind=kind, evening_id__in=ids[start : start + 500])
        for evening_id, version, played, games, tallies in rows.values_list(
            "evening_id", "version", "played", "games", "tallies"
        ):
            if versions[evening_id] == version:
                found[evening_id] = EveningSummary(_decode(tallies), played, games)
    return found


def _store(refs: Sequence[EveningRef], kind: str, summaries: Sequence[EveningSummary]) -> None:
    """Keep the figures just aggregated, under the version read before aggregating them.

    The aggregation saw at least that version, so a stored row never claims to be newer
    than what it holds; two workers storing at once both write the truth of a moment.
    """
    EveningTally.objects.bulk_create(
        [
            EveningTally(
                evening_id=ref.evening_id,
                kind=kind,
                version=ref.version,
                played=summary.played,
                games=summary.games,
                tallies=_encode(summary),
            )
            for ref, summary in zip(refs, summaries, strict=True)
        ],
        update_conflicts=True,
        unique_fields=["evening", "kind"],
        update_fields=["version", "played", "games", "tallies"],
        batch_size=500,
    )


def evening_summaries(refs: Sequence[EveningRef], kind: str = TAROT) -> list[EveningSummary]:
    """Each evening's figures: stored ones at the evening's version, the others aggregated
    (one query per 500 evenings) and stored for the next reader."""
    found: dict[int, EveningSummary] = {}
    unknown: list[EveningRef] = []
    for ref in refs:
        copy = _copies.get(_copy_key(ref, kind))
        if copy is None:
            unknown.append(ref)
        else:
            found[ref.evening_id] = copy
    found.update(_stored(unknown, kind))
    missing = [ref for ref in refs if ref.evening_id not in found]
    for start in range(0, len(missing), 500):
        chunk = missing[start : start + 500]
        aggregated = _aggregate_escopette(chunk) if kind == ESCOPETTE else _aggregate(chunk, kind)
        summaries = list(aggregated.values())
        _store(chunk, kind, summaries)
        for ref, summary in zip(chunk, summaries, strict=True):
            found[ref.evening_id] = summary
    for ref in unknown:
        _copies.set(_copy_key(ref, kind), found[ref.evening_id])
    return [found[ref.evening_id] for ref in refs]


def evening_refs(
    club: Club | int, *, start: dt.date | None = None, end: dt.date | None = None
) -> list[EveningRef]:
    """The club's evenings from start to end, in date order (one query)."""
    club_id = club.pk if isinstance(club, Club) else club
    evenings = Evening.objects.filter(club_id=club_id)
    if start is not None:
        evenings = evenings.filter(date__gte=start)
    if end is not None:
        evenings = evenings.filter(date__lte=end)
    return [
        EveningRef(*row)
        for row in evenings.order_by("date", "pk").values_list(
            "pk", "date", "place", "created_at", "version"
        )
    ]


# --- A season (or all time) -----------------------------------------------------------------------


@dataclass
class StandingRow:
    player_id: int
    name: str
    total: int = 0
    evenings: int = 0
    deals: int = 0
    takes: int = 0
    made: int = 0
    rank: int = 0
    games: int = 0  # L'escopette: games played
    won: int = 0  # L'escopette: games won
    unreplayable: int = 0  # L'escopette: games the rules cannot replay (no winner counted)

    @property
    def average(self) -> float | None:
        """Points per deal played."""
        return round(self.total / self.deals, 1) if self.deals else None


SORTS: dict[str, Any] = {
    "name": lambda row: row.name.casefold(),
    "total": lambda row: row.total,
    "evenings": lambda row: row.evenings,
    "deals": lambda row: row.deals,
    "takes": lambda row: row.takes,
    "made": lambda row: row.made,
    "games": lambda row: row.games,
    "won": lambda row: row.won,
    "average": lambda row: row.average if row.average is not None else float("-inf"),
}
#: The order a column sorts in when first chosen: names A to Z, figures highest first.
DEFAULT_DESCENDING = {name: name != "name" for name in SORTS}


def sort_rows(rows: Iterable[StandingRow], sort: str, descending: bool) -> list[StandingRow]:
    """Sorted by the column; ties keep the order of the ranking."""
    key = SORTS.get(sort, SORTS["total"])
    ordered = sorted(rows, key=lambda row: (row.rank, row.name.casefold()))
    return sorted(ordered, key=key, reverse=descending)


def _rank(rows: list[StandingRow]) -> list[StandingRow]:
    """Rank by total points, highest first; equal totals share a rank."""
    ordered = sorted(rows, key=lambda row: (-row.total, row.name.casefold()))
    for position, row in enumerate(ordered, start=1):
        previous = ordered[position - 2] if position > 1 else None
        row.rank = previous.rank if previous and previous.total == row.total else position
    return ordered


@dataclass
class EveningPoint:
    """One evening on a chart's axis."""

    evening_id: int
    date: dt.date
    place: str = ""


@dataclass(frozen=True)
class _Period:
    """What a season adds up to; kept in memory, never changed once built."""

    key: Hashable
    evenings: tuple[EveningPoint, ...]  # evenings with at least one score, in date order
    tallies: dict[int, Tally]  # player id -> the period's figures
    played_evenings: dict[int, int]  # player id -> evenings at the table
    points: dict[tuple[int, int], int]  # (evening id, player id) -> points that evening
    played: int  # deals played
    games: int = 0  # L'escopette: games with at least one deal
    unreplayable: int = 0  # L'escopette: games the rules cannot replay (no winner counted)


def _fingerprint(club_id: int, start: dt.date | None, end: dt.date | None) -> tuple[Hashable, ...]:
    """One row that changes whenever an evening of the range changes, comes or goes.

    Every change to an evening's deals, date or place bumps its version (services); an
    evening moving in or out changes the count and the sums of ids; created_at tells apart
    the rows of a database that reused an id (a test's rolled-back transaction). Its last
    value counts the evenings holding a game of L'escopette (none: nothing to aggregate).
    """
    evenings = Evening.objects.filter(club_id=club_id)
    if start is not None:
        evenings = evenings.filter(date__gte=start)
    if end is not None:
        evenings = evenings.filter(date__lte=end)
    row = evenings.aggregate(
        count=Count("pk"),
        ids=Sum("pk"),
        versions=Sum("version"),
        mixed=Sum(F("pk") * F("version")),
        first=Min("created_at"),
        last=Max("created_at"),
        escopette=Count(
            "pk", filter=Exists(Game.objects.filter(evening_id=OuterRef("pk"), kind=ESCOPETTE))
        ),
    )
    return tuple(row.values())


def _build_period(key: Hashable, refs: Sequence[EveningRef], kind: str) -> _Period:
    tallies: dict[int, Tally] = {}
    played_evenings: dict[int, int] = {}
    points: dict[tuple[int, int], int] = {}
    evenings: list[EveningPoint] = []
    played = games = unreplayable = 0
    for ref, summary in zip(refs, evening_summaries(refs, kind), strict=True):
        if not summary.tallies:
            continue
        evenings.append(EveningPoint(ref.evening_id, ref.date, ref.place))
        played += summary.played
        games += summary.games
        unreplayable += summary.unreplayable
        for player_id, tally in summary.tallies.items():
            tallies.setdefault(player_id, Tally()).add(tally)
            played_evenings[player_id] = played_evenings.get(player_id, 0) + 1
            points[ref.evening_id, player_id] = tally.total
    return _Period(
        key, tuple(evenings), tallies, played_evenings, points, played, games, unreplayable
    )


def _periods(
    club: Club | int, start: dt.date | None, end: dt.date | None, kinds: Sequence[str]
) -> dict[str, _Period]:
    """Each game's figures over the range, sharing one look at what changed (one query).

    When nothing changed that is all; else the evenings (one query) and each kind's
    aggregation, skipped for L'escopette when the range holds none of its games.
    """
    club_id = club.pk if isinstance(club, Club) else club
    fingerprint = _fingerprint(club_id, start, end)
    refs: list[EveningRef] | None = None
    periods: dict[str, _Period] = {}
    for kind in kinds:
        key = (_database(), kind, club_id, start, end, fingerprint)

        def build(key: Hashable = key, kind: str = kind) -> _Period:
            nonlocal refs
            if kind == ESCOPETTE and not fingerprint[-1]:
                return _Period(key, (), {}, {}, {}, 0)
            if refs is None:
                refs = evening_refs(club_id, start=start, end=end)
            return _build_period(key, refs, kind)

        digest = hashlib.sha1(repr(key).encode(), usedforsecurity=False).hexdigest()
        periods[kind] = shared_cache.get_or_build(f"season.{digest}", build, SEASON_SECONDS)
    return periods


def _period(club: Club | int, start: dt.date | None, end: dt.date | None, kind: str) -> _Period:
    return _periods(club, start, end, (kind,))[kind]


@dataclass
class SeasonStats:
    """A season's standings and, for its chart, each player's points evening by evening."""

    rows: list[StandingRow]  # ranked by total
    evenings: list[EveningPoint]  # in date order
    points: dict[tuple[int, int], int]  # (evening id, player id) -> points that evening
    deals: int = 0  # deals played (passed deals not counted)
    key: Hashable = None  # what the figures were built from: equal keys, equal figures
    games: int = 0  # L'escopette: games with at least one deal
    unreplayable: int = 0  # L'escopette: games the rules cannot replay (no winner counted)

    @property
    def digest(self) -> str:
        """A short name for ``key``, for caches: it changes whenever a figure may have."""
        return hashlib.sha1(repr(self.key).encode(), usedforsecurity=False).hexdigest()

    def cumulative(self, player_id: int) -> list[int]:
        """The player's total after each evening."""
        running, values = 0, []
        for evening in self.evenings:
            running += self.points.get((evening.evening_id, player_id), 0)
            values.append(running)
        return values


def _stats(period: _Period, names: dict[int, str]) -> SeasonStats:
    rows = [
        StandingRow(
            player_id=player_id,
            name=names.get(player_id, ""),
            total=tally.total,
            evenings=period.played_evenings[player_id],
            deals=tally.deals,
            takes=tally.takes,
            made=tally.made,
            games=tally.games,
            won=tally.won,
        )
        for player_id, tally in period.tallies.items()
    ]
    return SeasonStats(
        rows=_rank(rows),
        evenings=list(period.evenings),
        points=period.points,
        deals=period.played,
        key=(period.key, tuple((row.player_id, row.name) for row in rows)),
        games=period.games,
        unreplayable=period.unreplayable,
    )


def season_stats_by_kind(
    club: Club | int,
    *,
    start: dt.date | None = None,
    end: dt.date | None = None,
    kinds: Sequence[str] = KINDS,
) -> dict[str, SeasonStats]:
    """Each game's standings: two queries when nothing changed, three or more else."""
    periods = _periods(club, start, end, kinds)
    ids = {player_id for period in periods.values() for player_id in period.tallies}
    names = dict(Player.objects.filter(pk__in=list(ids)).values_list("pk", "name")) if ids else {}
    return {kind: _stats(period, names) for kind, period in periods.items()}


def season_stats(
    club: Club | int,
    *,
    start: dt.date | None = None,
    end: dt.date | None = None,
    kind: str = TAROT,
) -> SeasonStats:
    """Standings and per-evening points: two queries when nothing changed, three else."""
    return season_stats_by_kind(club, start=start, end=end, kinds=(kind,))[kind]


def for_season(season: Season, kind: str = TAROT) -> SeasonStats:
    return season_stats(season.club_id, start=season.start, end=season.end, kind=kind)


def for_season_by_kind(season: Season, kinds: Sequence[str] = KINDS) -> dict[str, SeasonStats]:
    return season_stats_by_kind(season.club_id, start=season.start, end=season.end, kinds=kinds)


# --- A player's figures ---------------------------------------------------------------------


@dataclass
class ContractLine:
    contract: str
    label: str
    taken: int = 0
    made: int = 0
    points: int = 0


@dataclass
class SideCount:
    """How often something went to the player's side, and to the other side."""

    label: str
    won: int = 0
    lost: int = 0
    key: str = ""


@dataclass
class EveningLine:
    evening_id: int
    date: dt.date
    place: str
    total: int


@dataclass
class PlayerFigures:
    player: Player
    summary: StandingRow
    contracts: list[ContractLine]
    called: int = 0
    called_made: int = 0
    called_points: int = 0
    petit_au_bout: SideCount = field(default_factory=lambda: SideCount(label=""))
    poignees: list[SideCount] = field(default_factory=list)
    chelems: SideCount = field(default_factory=lambda: SideCount(label=""))
    chelems_failed: int = 0
    evenings: list[EveningLine] = field(default_factory=list)
    key: Hashable = None  # what the figures were built from

    @property
    def digest(self) -> str:
        """A short name for the figures, for caches: it changes whenever one may have."""
        return hashlib.sha1(repr(self.key).encode(), usedforsecurity=False).hexdigest()

    @property
    def best(self) -> EveningLine | None:
        if not self.evenings:
            return None
        return max(self.evenings, key=lambda e: (e.total, e.date, e.evening_id))

    @property
    def worst(self) -> EveningLine | None:
        if not self.evenings:
            return None
        return min(self.evenings, key=lambda e: (e.total, e.date, e.evening_id))

    def cumulative(self) -> list[int]:
        running, values = 0, []
        for evening in self.evenings:
            running += evening.total
            values.append(running)
        return values


def player_figures(
    player: Player,
    *,
    start: dt.date | None = None,
    end: dt.date | None = None,
    kind: str = TAROT,
) -> PlayerFigures:
    """A player's season (all time without dates): one query when nothing changed."""
    return _player_figures(player, _period(player.club_id, start, end, kind))


def _summary(player: Player, period: _Period) -> StandingRow:
    tally = period.tallies.get(player.pk, Tally())
    return StandingRow(
        player_id=player.pk,
        name=player.name,
        total=tally.total,
        evenings=period.played_evenings.get(player.pk, 0),
        deals=tally.deals,
        takes=tally.takes,
        made=tally.made,
        games=tally.games,
        won=tally.won,
        unreplayable=tally.unreplayable,
    )


def player_sections(
    player: Player, *, start: dt.date | None = None, end: dt.date | None = None
) -> tuple[PlayerFigures, StandingRow | None]:
    """The player's French Tarot figures, and their L'escopette summary if they played any.

    The queries of ``player_figures`` alone: both games share the look at what changed.
    """
    periods = _periods(player.club_id, start, end, KINDS)
    escopette = _summary(player, periods[ESCOPETTE])
    return _player_figures(player, periods[TAROT]), escopette if escopette.deals else None


def _player_figures(player: Player, period: _Period) -> PlayerFigures:
    tally = period.tallies.get(player.pk, Tally())
    summary = _summary(player, period)
    evenings = [
        EveningLine(e.evening_id, e.date, e.place, period.points[e.evening_id, player.pk])
        for e in period.evenings
        if (e.evening_id, player.pk) in period.points
    ]
    return PlayerFigures(
        player=player,
        summary=summary,
        contracts=[
            ContractLine(value, str(label), *tally.contracts.get(value, (0, 0, 0)))
            for value, label in CONTRACT_LABELS.items()
        ],
        called=tally.called,
        called_made=tally.called_made,
        called_points=tally.called_points,
        petit_au_bout=SideCount(str(_("Petit au bout")), tally.petit_won, tally.petit_lost),
        poignees=[
            SideCount(str(label), *tally.poignees.get(kind_, (0, 0)), key=kind_)
            for kind_, label in POIGNEE_LABELS.items()
        ],
        chelems=SideCount(str(_("Chelem")), tally.chelem_won, tally.chelem_lost),
        chelems_failed=tally.chelem_failed,
        evenings=evenings,
        key=(period.key, player.pk, player.name),
    )


# --- Seasons ------------------------------------------------------------------------------------


def current_season(club: Club | int, today: dt.date) -> Season | None:
    """The season covering today (the one that started last); else the latest one."""
    club_id = club.pk if isinstance(club, Club) else club
    seasons = Season.objects.filter(club_id=club_id)
    season = (
        seasons.filter(start__lte=today, end__gte=today).order_by("-start", "end", "pk").first()
    )
    if season is None:
        season = seasons.order_by("-end", "-start", "-pk").first()
    return season
