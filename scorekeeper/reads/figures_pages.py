"""What the club figures pages show, laid out from a range's ``ClubFigures`` (no query here).

Each function takes the figures and the players' names and returns plain rows for one page:
the ratings (and their chart), head to head and partners, records and streaks, the contract
table. Names come from ``club_figures.player_names``; a player without a name (deleted) is
left out of nothing: he shows as "?".
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import NamedTuple

from django.template.defaultfilters import floatformat
from django.utils import formats
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from scorekeeper.models import Deal
from scorekeeper.reads.addresses import address_of
from scorekeeper.reads.charts import LineChart, line_chart
from scorekeeper.reads.club_figures import ClubFigures
from scorekeeper.scoring.club_figures import MIN_TAKES, ContractCell, Partnership
from scorekeeper.scoring.rating_quality import PredictionQuality
from scorekeeper.scoring.ratings import MIN_DEALS, PRIOR_MU, PRIOR_SIGMA, History, Z
from scorekeeper.server.wording import name_order, sign_class

CONTRACT_LABELS = dict(Deal.Contract.choices)
CHART_POINTS = 40  # evenings drawn at most: a phone's width
CHART_PLAYERS = 8  # the best rated: as many lines as the chart has colours


def _name(names: dict[int, str], player_id: object) -> str:
    return names.get(player_id, "?")  # type: ignore[call-overload]


# --- Ratings ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingRow:
    player_id: int
    name: str
    conservative: float
    sigma: float
    deals: int
    rank: int = 0
    url: str = ""  # the player's page


@dataclass(frozen=True)
class RatingsPage:
    rows: list[RatingRow]  # shown: enough deals, best conservative figure first
    hidden: list[RatingRow]  # not enough deals yet
    quality: PredictionQuality
    chart: LineChart | None
    min_deals: int = MIN_DEALS

    @property
    def worth_showing(self) -> bool:
        return self.quality.beats_base_rate

    @functools.cached_property
    def cells(self) -> list[dict[str, object]]:
        """The shown rows as the table writes them (a dict each: no attribute search)."""
        return [
            {"rank": row.rank, "url": row.url, "name": row.name, "deals": row.deals}
            | {"rating": floatformat(row.conservative, 1), "sigma": floatformat(row.sigma, 1)}
            for row in self.rows
        ]


def ratings_page(figures: ClubFigures, names: dict[int, str]) -> RatingsPage:
    """The ratings table (ranked only when the ratings beat the base rate) and its chart."""
    shown, hidden = [], []
    player_url = address_of("player", figures.club_id)
    for rating in figures.state.ratings.table():
        row = RatingRow(
            player_id=int(rating.player),  # type: ignore[call-overload]
            name=_name(names, rating.player),
            conservative=rating.conservative,
            sigma=rating.sigma,
            deals=rating.deals,
            url=player_url(rating.player),
        )
        (shown if rating.shown else hidden).append(row)
    quality = figures.quality
    if quality.beats_base_rate:
        shown = [replace(row, rank=rank) for rank, row in enumerate(shown, start=1)]
    else:  # no ranking by noise: by name
        shown.sort(key=lambda row: name_order(row.name))
    hidden.sort(key=lambda row: (-row.deals, name_order(row.name)))
    chart = None
    if quality.beats_base_rate and shown:
        chart = _rating_chart(figures, shown[:CHART_PLAYERS])
    return RatingsPage(shown, hidden, quality, chart)


When = tuple[dt.date, int]  # an evening's place in time: its date, then its id


def _rating_chart(figures: ClubFigures, rows: list[RatingRow]) -> LineChart:
    """Each shown player's conservative rating after each evening he played (carried on),
    read from his history's arrays (a point per evening)."""
    moments = {evening_id: (mark.date, evening_id) for evening_id, mark in figures.evenings.items()}
    histories = [figures.state.ratings.histories.get(row.player_id, History()) for row in rows]
    lines = [[moments.get(e) or (dt.date.min, e) for e in h.evening_ids] for h in histories]
    played = sorted({moment for whens in lines for moment in whens})
    # The start and the settled evenings' points: drawn alike for every chart of this name.
    order = ".".join(str(row.player_id) for row in rows)
    name = f"ratings.{figures.settled}.{get_language()}.{order}.{len(played)}"
    if len(played) > CHART_POINTS:  # evenly spaced evenings, the last one always
        step = (len(played) - 1) / (CHART_POINTS - 1)
        played = [played[round(k * step)] for k in range(CHART_POINTS)]
    start = round(PRIOR_MU - Z * PRIOR_SIGMA)
    series = []
    for row, history, whens in zip(rows, histories, lines, strict=True):
        # The rating after the last evening played up to each one (the start before any).
        at = [bisect.bisect_right(whens, until) for until in played]
        after = [round(history.mus[i - 1] - Z * history.sigmas[i - 1]) if i else start for i in at]
        series.append((row.name, [start, *after]))
    dates = [date if date != dt.date.min else None for date, _evening_id in played]
    kept = (name, 1 + sum(1 for date in dates if not date or date < figures.latest))
    labels = [_("start")] + [date.isoformat() if date else "" for date in dates]
    ticks = [""] + [f"{date.day}/{date.month}" if date else "" for date in dates]
    return line_chart(
        chart_id="chart-ratings",
        title=_("Conservative rating of the best rated, evening by evening"),
        x_label=_("Evening"),
        y_label=_("Rating"),
        x_labels=labels,
        x_tick_labels=ticks,
        series=series,
        kept=kept,
    )


# --- Head to head and partners ----------------------------------------------------------------


def flow_line(other: str, net: int) -> dict[str, str]:
    """A line of a player's flow as shown (a dict: no attribute search): name, class, figure."""
    return {"other": other, "classes": f"value {sign_class(net)}".rstrip(), "shown": f"{net:+d}"}


@dataclass(frozen=True)
class PlayerFlow:
    player_id: int
    name: str
    balance: int
    lines: list[dict[str, str]]  # flow_line's, the most won from first

    @property
    def shown(self) -> str:
        return f"{self.balance:+d}"

    @property
    def sign(self) -> str:
        return sign_class(self.balance)

    @property
    def key(self) -> str:  # names what the player's section shows ({% cache %}: its drawing)
        return repr((self.player_id, self.name, self.balance, self.lines, get_language()))


def partner_line(
    taker: str, partner: str, row: Partnership, calling: str, won: str
) -> dict[str, str]:
    """A taker with a partner he called, as shown (a dict): "Ana calling Ben", then his deals,
    made, share made (from ``MIN_TAKES`` deals) and points; ``calling`` and ``won``: the two
    sentences, translated once for the page."""
    deals = ngettext("%(counter)s deal", "%(counter)s deals", row.deals)
    made = ngettext("%(counter)s made", "%(counter)s made", row.made)
    share = f" ({round(100 * (row.made / row.deals))} %)" if row.deals >= MIN_TAKES else ""
    points = (f"{row.taker_points:+d}", f"{row.partner_points:+d}")
    won %= dict(taker=taker, taker_points=points[0], partner=partner, partner_points=points[1])
    counts = (
        deals % {"counter": formats.localize(row.deals)},
        made % {"counter": formats.localize(row.made)},
    )
    return {
        "title": calling % {"taker": taker, "partner": partner},
        "text": f"{counts[0]}, {counts[1]}{share} · {won}",
    }


@dataclass(frozen=True)
class HeadToHeadPage:
    players: list[PlayerFlow]
    partners: list[dict[str, str]]  # partner_line's
    deals: int
    unbalanced: int
    min_takes: int = MIN_TAKES


def head_to_head_page(figures: ClubFigures, names: dict[int, str]) -> HeadToHeadPage:
    """Per player, what he won from or lost to each other player (each pair's net worked out
    once, each name's sort key once); partners at five."""
    state = figures.state
    paid = state.paid
    nets: dict[object, dict[object, Fraction]] = {}
    for payer, payee in paid:
        of_payer, of_payee = nets.setdefault(payer, {}), nets.setdefault(payee, {})
        if payer not in of_payee:
            of_payee[payer] = paid[payer, payee] - paid.get((payee, payer), 0)
            of_payer[payee] = -of_payee[payer]
    shown = {player: _name(names, player) for player in nets}
    order = {player: name_order(name) for player, name in shown.items()}
    players = []
    for player, against in nets.items():
        lines = sorted((order[other], shown[other], round(net)) for other, net in against.items())
        lines.sort(key=lambda line: -line[2])  # stable: by name among equals
        balance = round(sum(against.values(), Fraction(0)))
        flow = [flow_line(other, net) for _order, other, net in lines]
        players.append(PlayerFlow(int(player), shown[player], balance, flow))  # type: ignore[call-overload]
    players.sort(key=lambda row: (-row.balance, order[row.player_id]))
    calling = _("%(taker)s calling %(partner)s")
    won = _("points won: %(taker)s %(taker_points)s, %(partner)s %(partner_points)s")
    partners = [
        partner_line(_name(names, row.taker), _name(names, row.partner), row, calling, won)
        for row in state.partnerships()
    ]
    return HeadToHeadPage(players, partners, state.flow_deals, len(state.unbalanced))


# --- Contract × player --------------------------------------------------------------------------


class ContractCellView(NamedTuple):
    takes: int
    made: int
    percent: int | None  # the share made, None below the minimum of takes


@dataclass(frozen=True)
class ContractRow:
    player_id: int
    name: str
    seated: int
    take_share: float | None
    all: ContractCellView
    labelled: list[tuple[str, ContractCellView]]  # (contract, cell), in the rules' order
    by_bouts: list[int]  # takes with 0, 1, 2, 3 bouts


@dataclass(frozen=True)
class ContractsPage:
    rows: list[ContractRow]
    min_takes: int = MIN_TAKES


def _cell(cell: ContractCell) -> ContractCellView:
    rate = cell.rate
    return ContractCellView(cell.takes, cell.made, None if rate is None else round(100 * rate))


def contracts_page(figures: ClubFigures, names: dict[int, str]) -> ContractsPage:
    rows = []
    for player, row in figures.state.contracts.items():
        cells = [
            (str(label), _cell(row.by_contract.get(key, ContractCell())))
            for key, label in CONTRACT_LABELS.items()
        ]
        rows.append(
            ContractRow(
                player_id=int(player),  # type: ignore[call-overload]
                name=_name(names, player),
                seated=row.seated,
                take_share=row.take_share,
                all=_cell(row.all),
                labelled=cells,
                by_bouts=list(row.all.by_bouts),
            )
        )
    rows.sort(key=lambda row: (-row.all.takes, name_order(row.name)))
    return ContractsPage(rows)
