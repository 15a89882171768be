"""One evening's figures per player, as one query adds them up from the stored scores.

The aggregation reads ``DealScore`` grouped by player and by the kind of deal (the player's
role, made or not, contract, petit au bout, chelem, poignées), so a few rows stand for many
deals; each group is counted into a ``Tally``. The games are kept apart (``kind``): French
Tarot by default; L'escopette has its own figures (points, deals, games played and won),
aggregated by ``aggregate_escopette``, which replays each game's stakes through the scoring
rules to find its winner. Owns ``Tally``, ``EveningSummary``, ``EveningRef``, the two
aggregations and ``with_added_deal`` (an evening's figures and the one deal saved since);
storing them is ``evening_tallies``'s business.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import (
    BooleanField,
    Case,
    CharField,
    Count,
    F,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)

from scorekeeper.models import Deal, DealScore, Game
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.scoring.escopette import EscopetteDeal, escopette_game
from scorekeeper.scoring.tarot import TARGETS
from scorekeeper.server.prepared import Prepared

TAROT = Game.Kind.TAROT
ESCOPETTE = Game.Kind.ESCOPETTE
KINDS = (TAROT, ESCOPETTE)

CHELEM_MADE = ("announced", "unannounced")

# What each stored score was, as the database sees it.
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


def own_tally(tallies: dict[int, Tally], copied: set[int], player_id: int) -> Tally:
    """The player's tally in ``tallies``, to add to: a tally shared with kept figures (the
    player not yet in ``copied``, the tallies ``tallies`` owns) is copied first."""
    if player_id not in copied:
        copied.add(player_id)
        own = Tally()
        if player_id in tallies:
            own.add(tallies[player_id])
        tallies[player_id] = own
    return tallies[player_id]


@dataclass(frozen=True)
class EveningSummary:
    """One evening's figures: a tally per player, and the deals (and games) played."""

    tallies: dict[int, Tally]
    played: int
    games: int = 0  # L'escopette's games with at least one deal
    unreplayable: int = 0  # L'escopette's games whose stored deals the rules refuse
    #: The evening's version these figures are exactly, when the query that read them said
    #: so (tonight's, read with their evening's version); None when it is not known. Not a
    #: figure: equal figures are equal summaries, however they were read.
    version: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class EveningRef:
    """An evening as the season sees it: its identity and version, its date and place."""

    evening_id: int
    date: dt.date
    place: str
    created_at: dt.datetime
    version: int
    added_deal: int | None = None  # the deal whose saving made this version, if only that


def _lines(scores: QuerySet[DealScore], **read_with: F) -> QuerySet[DealScore]:
    """The scores grouped by evening, player and kind of deal (and ``read_with``: values of
    the deal's game or evening, the same for every score of an evening)."""
    return (
        scores.values(
            "player_id",
            "deal__contract",
            "deal__petit_au_bout",
            "deal__chelem",
            "deal__poignees",
            evening=F("deal__game__evening_id"),
            role=ROLE,
            made=MADE,
            **read_with,
        )
        .annotate(n=Count("pk"), points=Sum("score"))
        .order_by()
    )


def _as_read(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines of a compiled query as the ORM gives them (JSON read, SQLite's 0 and 1 as
    booleans), named as ``Tally.count`` reads them."""
    for line in lines:
        line["made"] = bool(line["made"])
        poignees = line["deal__poignees"]
        if isinstance(poignees, str):
            poignees = json.loads(poignees) if poignees != "[]" else []
        line["deal__poignees"] = line["poignees"] = poignees
        line["contract"] = line["deal__contract"]
        line["petit_au_bout"] = line["deal__petit_au_bout"]
        line["chelem"] = line["deal__chelem"]
    return lines


# A few evenings' aggregation (tonight's, after each deal saved: one evening, or the tables
# of a club night changed since this process last looked), compiled once per game and count.
EVENING = 2_000_000_017  # the stand-in evening ids it is compiled with: this one and on
FEW = 8  # up to this many evenings; more go through the ORM (a club's whole season)
_few_evenings: dict[tuple[str, int], Prepared] = {}


def _evening_lines(ids: Sequence[int], kind: str) -> list[dict[str, Any]]:
    prepared = _few_evenings.get((kind, len(ids)))
    if prepared is None:

        def build(*evenings: int, kind: str = kind) -> QuerySet[DealScore]:
            scores = DealScore.objects.filter(deal__game__kind=kind)
            if len(evenings) == 1:
                scores = scores.filter(deal__game__evening_id=evenings[0])
            else:
                scores = scores.filter(deal__game__evening_id__in=evenings)
            return _lines(scores, version=F("deal__game__evening__version"))

        stand_ins = [EVENING + number for number in range(len(ids))]
        prepared = _few_evenings[kind, len(ids)] = Prepared(build, *stand_ins)
    # The driver's values (JSON as text, SQLite's 0 and 1), and each evening's version in the
    # same statement: the figures are exactly that version's.
    return _as_read(prepared.raw_rows(*ids))


# The scores of one deal, with its game's kind and its evening's version read in the same
# statement (tonight's figures after a deal saved: the version before's and this deal's).
DEAL = 2_000_000_029  # the stand-in deal id it is compiled with
_one_deal = Prepared(
    lambda deal: _lines(
        DealScore.objects.filter(deal_id=deal),
        kind=F("deal__game__kind"),
        version=F("deal__game__evening__version"),
    ),
    DEAL,
)


def with_added_deal(before: EveningSummary, ref: EveningRef, kind: str) -> EveningSummary | None:
    """The evening's figures at ``ref``'s version, from ``before`` (exactly the version before)
    and the deal whose saving made this one (one query: its scores and its evening's version).
    None when the deal is gone or its evening has moved on since (read the evening whole)."""
    if ref.added_deal is None:
        return None
    lines = _as_read(_one_deal.raw_rows(ref.added_deal))
    if not lines or any(
        line["evening"] != ref.evening_id or line["version"] != ref.version for line in lines
    ):
        return None
    tallies = dict(before.tallies)  # ``before`` is kept as it is: never changed once built
    copied: set[int] = set()  # the players of this deal, with a tally of their own here
    played = before.played
    for line in lines:
        if line["kind"] != kind:  # a deal of the other game: these figures stay as they were
            continue
        own_tally(tallies, copied, line["player_id"]).count(line)
        if line["role"] == TAKER:
            played += line["n"]
    return EveningSummary(tallies=tallies, played=played, version=ref.version)


def aggregate(refs: Sequence[EveningRef], kind: str) -> dict[int, EveningSummary]:
    """One query: the scores of these evenings grouped by evening, player and kind of deal."""
    ids = [ref.evening_id for ref in refs]
    lines: Iterable[dict[str, Any]]
    if 1 <= len(ids) <= FEW:
        lines = _evening_lines(ids, kind)
    else:
        scores = DealScore.objects.filter(deal__game__kind=kind, deal__game__evening_id__in=ids)
        lines = _as_read(list(_lines(scores)))
    tallies: dict[int, dict[int, Tally]] = {evening_id: {} for evening_id in ids}
    played = dict.fromkeys(ids, 0)
    versions: dict[int, int] = {}  # the evenings' versions, when the query read them
    for line in lines:
        evening = line["evening"]
        tally = tallies[evening].get(line["player_id"])
        if tally is None:
            tally = tallies[evening][line["player_id"]] = Tally()
        tally.count(line)
        if line["role"] == TAKER:
            played[evening] += line["n"]
        if "version" in line:
            versions[evening] = line["version"]
    return {
        evening_id: EveningSummary(
            tallies=tallies[evening_id],
            played=played[evening_id],
            version=versions.get(evening_id),
        )
        for evening_id in ids
    }


def aggregate_escopette(refs: Sequence[EveningRef]) -> dict[int, EveningSummary]:
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
