"""What the records page shows, from a range's ``ClubFigures`` (no query here): a section per
kind of record, named by the facts its lines show (its fragment's key: a save that beats no
record draws none of them) and worded only when drawn: each line's player, figure, link (its
evening or tournament) and date, every link from one ``reverse``."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.utils import formats
from django.utils.translation import get_language, ngettext

from scorekeeper.reads.addresses import address_of
from scorekeeper.reads.club_figures import ClubFigures


class Fact(NamedTuple):
    """What a record's line shows, before it is worded."""

    name: str
    value: int
    evening_id: int
    date: dt.date | None
    deal_id: int | None = None  # the evening page's row it links to, when it is one deal
    tournament_id: int | None = None  # an evening record over a tournament's tables


@dataclass(frozen=True)
class RecordLine:
    name: str
    value: int
    url: str  # the evening (at the deal's row) or the tournament it links to
    when: str  # its date, as the date filter writes a short date
    text: str = ""  # a run's length, in words


class Section:
    """A section's facts (``key``: what its fragment shows) and, once drawn, its ``lines``."""

    def __init__(self, facts: list[Fact | None], word: Callable[[Fact], RecordLine]) -> None:
        self.facts, self.word = facts, word

    @property
    def key(self) -> str:
        return repr((self.facts, get_language()))

    @functools.cached_property
    def lines(self) -> list[RecordLine | None]:
        return [fact and self.word(fact) for fact in self.facts]


@dataclass(frozen=True)
class RecordsPage:
    deals: Section  # the biggest deal won and lost, the best and worst evening (None: no deal)
    streaks: Section
    chelems: Section
    petits_au_bout: Section


def records_page(figures: ClubFigures, names: dict[int, str]) -> RecordsPage:
    state, records = figures.state, figures.state.records()
    tournament_of = {night: tournament for tournament, night in state.tournaments.items()}

    def fact(player: Any, value: int, evening_id: int, *link: int | None) -> Fact:
        """``link``: the deal whose row it links to, or None and the tournament."""
        date = figures.evening_date(evening_id)
        return Fact(names.get(player, "?"), value, evening_id, date, *link)

    won_lost = (records.biggest_win, records.biggest_loss)
    deals = [r and fact(r.player, r.score, r.evening_id, r.deal_id) for r in won_lost]
    for r in (records.best_evening, records.worst_evening):
        deals.append(
            r and fact(r.player, r.total, r.evening_id, None, tournament_of.get(r.evening_id))
        )
    streaks = sorted(records.streaks.values(), key=lambda run: (-run.length, run.last_deal_id))
    runs = [fact(s.player, s.length, s.last_evening_id, s.last_deal_id) for s in streaks]
    tallies = [  # each player's count, his last one linked
        [
            fact(t.player, t.count, state.feat_evenings.get(t.deal_ids[-1], 0), t.deal_ids[-1])
            for t in rows
        ]
        for rows in (records.chelems, records.petits_au_bout)
    ]
    line = _wording()
    run = functools.partial(line, run=True)
    return RecordsPage(
        Section(deals, line), Section(runs, run), *(Section(t, line) for t in tallies)
    )


def _wording() -> Callable[..., RecordLine]:
    """A record's line worded from its facts (``run``: its value a run's length, in words too);
    each date written once, every link from one ``reverse``."""
    evening_url, tournament_url = address_of("evening"), address_of("tournament")
    dates: dict[dt.date | None, str] = {}

    def line(fact: Fact, run: bool = False) -> RecordLine:
        name, value, evening_id, date, deal_id, tournament_id = fact
        if date not in dates:
            dates[date] = formats.date_format(date, "SHORT_DATE_FORMAT") if date else ""
        url = evening_url(evening_id) + (f"#deal-{deal_id}" if deal_id is not None else "")
        url = tournament_url(tournament_id) if tournament_id else url
        words = run and ngettext(
            "%(counter)s contract in a row", "%(counter)s contracts in a row", value
        )
        text = words % {"counter": formats.localize(value)} if words else ""
        return RecordLine(name, value, url, dates[date], text)

    return line
