"""What the records page shows, laid out from a range's ``ClubFigures`` (no query here):
each record with its player, its figure, the evening (or tournament) it links to and that
evening's date, worded and linked here once per record rather than by tags in each row."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

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
    when: str = ""  # its date, as the reader's language writes a short date
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


class _Lines:
    """Makes the page's lines: each evening's address and each date's words worked out once."""

    def __init__(self, figures: ClubFigures, names: dict[int, str]) -> None:
        self.figures, self.names = figures, names
        self.urls: dict[int, str] = {}
        self.dates: dict[dt.date | None, str] = {}

    def line(
        self,
        player: object,
        value: int,
        evening_id: int,
        *,
        deal_id: int | None = None,
        last_deal_id: int | None = None,
        tournament_id: int | None = None,
        anchor: int | None = None,
        text: str = "",
    ) -> RecordLine:
        """A record's line; ``anchor``: the deal whose row on the evening page it links to."""
        date = self.figures.evening_date(evening_id)
        if tournament_id:
            url = reverse("tournament", args=[tournament_id])
        else:
            url = self._evening_url(evening_id)
            url += f"#deal-{anchor}" if anchor is not None else ""
        if date not in self.dates:  # as the date filter writes it (nothing without a date)
            self.dates[date] = formats.date_format(date, "SHORT_DATE_FORMAT") if date else ""
        return RecordLine(
            name=self.names.get(player, "?"),  # type: ignore[call-overload]
            value=value,
            evening_id=evening_id,
            date=date,
            deal_id=deal_id,
            last_deal_id=last_deal_id,
            tournament_id=tournament_id,
            url=url,
            when=self.dates[date],
            text=text,
        )

    def _evening_url(self, evening_id: int) -> str:
        if evening_id not in self.urls:
            self.urls[evening_id] = reverse("evening", args=[evening_id])
        return self.urls[evening_id]


def records_page(figures: ClubFigures, names: dict[int, str]) -> RecordsPage:
    records = figures.state.records()
    evening_of = figures.state.feat_evenings
    tournament_of = {night: tournament for tournament, night in figures.state.tournaments.items()}
    lines = _Lines(figures, names)

    def deal_line(record: object) -> RecordLine | None:
        if record is None:
            return None
        return lines.line(
            record.player,  # type: ignore[attr-defined]
            record.score,  # type: ignore[attr-defined]
            record.evening_id,  # type: ignore[attr-defined]
            deal_id=record.deal_id,  # type: ignore[attr-defined]
            anchor=record.deal_id,  # type: ignore[attr-defined]
        )

    def evening_line(record: object) -> RecordLine | None:
        if record is None:
            return None
        evening_id = record.evening_id  # type: ignore[attr-defined]
        return lines.line(
            record.player,  # type: ignore[attr-defined]
            record.total,  # type: ignore[attr-defined]
            evening_id,
            tournament_id=tournament_of.get(evening_id),
        )

    def tally_lines(rows: list) -> list[RecordLine]:
        return [
            lines.line(row.player, row.count, evening_of.get(last, 0), deal_id=last, anchor=last)
            for row in rows
            for last in [row.deal_ids[-1]]
        ]

    def streak_line(streak: object) -> RecordLine:
        length = streak.length  # type: ignore[attr-defined]
        text = ngettext(
            "%(counter)s contract in a row", "%(counter)s contracts in a row", length
        ) % {"counter": formats.localize(length)}
        return lines.line(
            streak.player,  # type: ignore[attr-defined]
            length,
            streak.last_evening_id,  # type: ignore[attr-defined]
            deal_id=streak.first_deal_id,  # type: ignore[attr-defined]
            last_deal_id=streak.last_deal_id,  # type: ignore[attr-defined]
            anchor=streak.last_deal_id,  # type: ignore[attr-defined]
            text=text,
        )

    streaks = sorted(
        records.streaks.values(), key=lambda streak: (-streak.length, streak.last_deal_id)
    )
    return RecordsPage(
        biggest_win=deal_line(records.biggest_win),
        biggest_loss=deal_line(records.biggest_loss),
        best_evening=evening_line(records.best_evening),
        worst_evening=evening_line(records.worst_evening),
        streaks=[streak_line(streak) for streak in streaks],
        chelems=tally_lines(records.chelems),
        petits_au_bout=tally_lines(records.petits_au_bout),
    )
