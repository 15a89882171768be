"""What the records page shows, from a range's ``ClubFigures`` (no query here): each record's
player, figure, link (its evening or tournament) and date, worked out once per evening and
date rather than by tags in each row."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils import formats
from django.utils.translation import ngettext

from scorekeeper.reads.club_figures import ClubFigures


@dataclass(frozen=True)
class RecordLine:
    name: str
    value: int
    evening_id: int
    date: dt.date | None
    deal_id: int | None = None  # the evening page's row of the deal, when it is one deal
    last_deal_id: int | None = None
    tournament_id: int | None = None  # an evening record over a tournament's tables
    url: str = ""  # the evening (at the deal's row) or the tournament it links to
    when: str = ""  # its date, as the date filter writes a short date
    text: str = ""  # a run's length, in words


@dataclass(frozen=True)
class RecordsPage:
    biggest_win: RecordLine | None
    biggest_loss: RecordLine | None
    best_evening: RecordLine | None
    worst_evening: RecordLine | None
    streaks: list[RecordLine] = field(default_factory=list)
    chelems: list[RecordLine] = field(default_factory=list)
    petits_au_bout: list[RecordLine] = field(default_factory=list)


def records_page(figures: ClubFigures, names: dict[int, str]) -> RecordsPage:
    records = figures.state.records()
    evening_of = figures.state.feat_evenings
    tournament_of = {night: tournament for tournament, night in figures.state.tournaments.items()}
    urls: dict[int, str] = {}
    dates: dict[dt.date | None, str] = {}

    def line(
        player: Any, value: int, evening_id: int, anchor: int | None, **more: Any
    ) -> RecordLine:
        """A record's line; ``anchor``: the deal whose row on the evening page it links to."""
        date = figures.evening_date(evening_id)
        if date not in dates:
            dates[date] = formats.date_format(date, "SHORT_DATE_FORMAT") if date else ""
        if evening_id not in urls:
            urls[evening_id] = reverse("evening", args=[evening_id])
        url = urls[evening_id] + (f"#deal-{anchor}" if anchor is not None else "")
        if more.get("tournament_id"):
            url = reverse("tournament", args=[more["tournament_id"]])
        name = names.get(player, "?")
        return RecordLine(name, value, evening_id, date, url=url, when=dates[date], **more)

    def deal_line(record: Any) -> RecordLine | None:
        return record and line(
            record.player, record.score, record.evening_id, record.deal_id, deal_id=record.deal_id
        )

    def evening_line(record: Any) -> RecordLine | None:
        tournament = record and tournament_of.get(record.evening_id)
        return record and line(
            record.player, record.total, record.evening_id, None, tournament_id=tournament
        )

    def tally_lines(rows: list) -> list[RecordLine]:
        lasts = [row.deal_ids[-1] for row in rows]
        return [
            line(row.player, row.count, evening_of.get(last, 0), last, deal_id=last)
            for row, last in zip(rows, lasts, strict=True)
        ]

    def streak_line(streak: Any) -> RecordLine:
        words = ngettext(
            "%(counter)s contract in a row", "%(counter)s contracts in a row", streak.length
        )
        return line(
            streak.player,
            streak.length,
            streak.last_evening_id,
            streak.last_deal_id,
            deal_id=streak.first_deal_id,
            last_deal_id=streak.last_deal_id,
            text=words % {"counter": formats.localize(streak.length)},
        )

    streaks = sorted(records.streaks.values(), key=lambda run: (-run.length, run.last_deal_id))
    return RecordsPage(
        biggest_win=deal_line(records.biggest_win),
        biggest_loss=deal_line(records.biggest_loss),
        best_evening=evening_line(records.best_evening),
        worst_evening=evening_line(records.worst_evening),
        streaks=[streak_line(streak) for streak in streaks],
        chelems=tally_lines(records.chelems),
        petits_au_bout=tally_lines(records.petits_au_bout),
    )
