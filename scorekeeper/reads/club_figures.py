"""What a club argues about, read from its stored deals: ratings, head to head, records.

``club_figures(club_id, start=, end=)`` gives a :class:`ClubFigures` for a season (its dates)
or all time (no dates). When nothing changed it costs one query (the range's fingerprint) and
the figures come from this process's memory.

When something changed, the figures are not built again from the first deal. The range's
evenings are split into the settled ones (before the latest date) and tonight's (the latest
date); a :class:`~scorekeeper.scoring.club_state.FiguresState` of the settled evenings is
kept under a digest of exactly those evenings and their versions (so it is never stale), in
this process and in the shared cache; it is copied and extended with tonight's deals, read
again only for the evening that changed. The state last built for tonight is kept too, and a
deal saved since is inserted at its place in it (``club_state.extended``), at whichever of
tonight's tables it was saved: one more deal to rate, on a night of 300 tables as of one
(and a copy of the state). Tonight's deals are added again to the settled state when one of them was
corrected or deleted, or a new deal cannot be put at its place (a player already counted at
a later table); a change to an older evening changes the settled digest: the state is then
replayed from the first deal (10,000 deals in well under two seconds).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.cache import cache

from scorekeeper.models import Player
from scorekeeper.reads.deal_facts import (
    EveningMark,
    database,
    evening_facts,
    evening_marks,
    fingerprint,
)
from scorekeeper.reads.nights import Nights
from scorekeeper.scoring.club_state import FiguresState, extended
from scorekeeper.scoring.rating_quality import PredictionQuality
from scorekeeper.server import shared_cache
from scorekeeper.server.prepared import Prepared

STATE_SECONDS = 7 * 86400

# Built states under the digest of the evenings they hold (never stale), and the figures of
# a range under its fingerprint: neither is ever changed once built.
_states = shared_cache.LocalMemo(64)
_figures = shared_cache.LocalMemo(256)
# The last state built on each settled state with tonight's deals in it: under the settled
# evenings' digest, the date and tonight's first evening.
_tonight = shared_cache.LocalMemo(64)
# The settled evenings of a range under their fingerprint: their marks, by id, and digest.
_settled = shared_cache.LocalMemo(64)


@dataclass(frozen=True)
class ClubFigures:
    """A range's figures: the state after its deals, and its evenings by id."""

    state: FiguresState
    evenings: dict[int, EveningMark]
    key: str  # names the figures: equal keys, equal figures
    #: The digest of the evenings before the latest date (the settled ones), and that date:
    #: what the figures hold of the settled evenings is the same under the same digest.
    settled: str = ""
    latest: dt.date | None = None

    @property
    def quality(self) -> PredictionQuality:
        return self.state.ratings.quality.result()

    @property
    def deals(self) -> int:
        return self.state.deals

    def evening_date(self, evening_id: int) -> dt.date | None:
        mark = self.evenings.get(evening_id)
        return mark.date if mark else None


def digest(marks: Sequence[EveningMark]) -> str:
    """A name for the deals of these evenings at their versions."""
    content = repr((database(), [mark.content for mark in marks]))
    return hashlib.sha1(content.encode(), usedforsecurity=False).hexdigest()


def _facts(marks: Sequence[EveningMark], *, share: bool = True) -> list:
    read = evening_facts(marks, share=share)
    return [deal for mark in marks for deal in read[mark.evening_id]]


def _settled_state(
    marks: Sequence[EveningMark], tonight: Sequence[EveningMark], name: str
) -> FiguresState:
    """The state of these evenings (``name``: their digest): this process's, the shared
    cache's, else replayed (their deals read with tonight's, in the same two queries)."""
    state = _states.get(name)
    if state is None:
        state = cache.get(f"figures.settled.{name}")
        if state is None:
            evening_facts([*marks, *tonight])
            state = FiguresState().advance(_facts(marks)).settle()
            cache.set(f"figures.settled.{name}", state, STATE_SECONDS)
        _states.set(name, state)
    return state


def figures_state(marks: Sequence[EveningMark], *, settled_name: str = "") -> FiguresState:
    """The state after these evenings (in order): the settled ones' kept state, extended.

    When tonight's deals so far are the ones the last state on the same settled evenings was
    built with, and new ones (deals saved at any table), the new ones are inserted into it.
    ``settled_name``: the settled evenings' ``digest``, when the caller knows it.
    """
    if not marks:
        return FiguresState()
    latest = marks[-1].date
    settled = [mark for mark in marks if mark.date < latest]
    tonight = [mark for mark in marks if mark.date >= latest]
    base = settled_name or digest(settled)
    # Tonight's first evening tells clubs and ranges apart when they have no settled evening.
    night = (base, latest, min(mark.evening_id for mark in tonight))
    state = None
    previous = _tonight.get(night)
    if previous is not None:
        deals = _facts(tonight, share=False)
        done, done_state = previous
        state = extended(done_state, done, deals)
        if state is done_state:
            return state
    if state is None:
        base_state = _settled_state(settled, tonight, base)
        deals = _facts(tonight, share=False)
        state = base_state.copy().advance(deals)
    _tonight.set(night, (tuple(deals), state))
    return state


def replay_state(marks: Sequence[EveningMark]) -> FiguresState:
    """The state built again from the first deal (what a correction of an old deal costs)."""
    return FiguresState().advance(_facts(marks))


def _tonight_marks(club_id: int, found: Nights) -> list[EveningMark]:
    """Tonight's evenings: from the fingerprint when there is one, else one query."""
    if found.latest is None:
        return []
    one = found.tonight_evening()
    if one is not None:
        evening_id, created_at, version, _place = one
        added = found.tonight.added
        return [EveningMark(evening_id, found.latest, created_at, version, added)]
    return evening_marks(club_id, found.latest, found.latest)


def club_figures(
    club_id: int, *, start: dt.date | None = None, end: dt.date | None = None
) -> ClubFigures:
    """The figures of the club's evenings from start to end (all time without dates).

    When only tonight's evenings changed, the settled evenings are known in this process
    (their marks and digest, under their fingerprint): tonight's alone are looked at.
    """
    found = fingerprint(club_id, start, end)
    key = repr((database(), club_id, start, end, found.key))
    figures = _figures.get(key)
    if figures is None:
        settled_key = repr((database(), club_id, start, end, found.settled_key))
        kept = _settled.get(settled_key)
        if kept is None:
            marks = evening_marks(club_id, start, end)
            settled = tuple(mark for mark in marks if mark.date < marks[-1].date) if marks else ()
            kept = (settled, {mark.evening_id: mark for mark in settled}, digest(settled))
            _settled.set(settled_key, kept)
        else:
            marks = [*kept[0], *_tonight_marks(club_id, found)]
        evenings = dict(kept[1])
        evenings.update((mark.evening_id, mark) for mark in marks[len(kept[0]) :])
        figures = ClubFigures(
            state=figures_state(marks, settled_name=kept[2]),
            evenings=evenings,
            key=hashlib.sha1(key.encode(), usedforsecurity=False).hexdigest(),
            settled=kept[2],
            latest=marks[-1].date if marks else None,
        )
        _figures.set(key, figures)
    return figures


CLUB = 2_000_000_023  # the stand-in club id the players' query is compiled with
_names = Prepared(lambda club: Player.objects.filter(club_id=club).values_list("pk", "name"), CLUB)


def player_names(club_id: int) -> dict[int, str]:
    """The club's players by id (one query: a renamed player is renamed everywhere)."""
    return dict(_names.tuples(club_id))
