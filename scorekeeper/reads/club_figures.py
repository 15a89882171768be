"""What a club argues about, read from its stored deals: ratings, head to head, records.

``club_figures(club_id, start=, end=)`` gives a :class:`ClubFigures` for a season (its dates)
or all time (no dates): the pure fold (``scoring.club_state.FiguresState``) over the range's
French Tarot deals. The settled evenings (before the latest date) are folded once and stored
(``models.FiguresCheckpoint``: a checkpoint at the end of each month and at the last settled
evening, pickled under ``FORMAT``); a view reads the latest checkpoint still valid and folds
the deals after it (tonight's, as a rule). A write to an evening a checkpoint holds deletes
it in the write's transaction (``services.figures.refresh_figures``); each checkpoint also
names the evenings it holds at their versions, so one left by a read that raced a write is
never used.

What is kept in Django's cache (plainly, under names of what the value was made from):
each part of the settled evenings' state (``club_state.PARTS``: what one page shows) with
tonight's deals folded in, under the name of the settled evenings at their versions, with
those deals (``_fold``: after a deal is added, only that deal is folded into the page's part,
and no checkpoint is read);
the pages' fragments under ``ClubFigures.key``, the digest of the range's evenings at their
versions, which needs no fold at all (``state`` is folded only when first read).
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import hashlib
import pickle
from collections.abc import Callable, Sequence
from itertools import groupby

from django.core.cache import cache
from django.db import IntegrityError, transaction

from scorekeeper.models import FiguresCheckpoint, Player
from scorekeeper.reads import deal_facts as read
from scorekeeper.reads.deal_facts import EveningMark, evening_facts, evening_marks
from scorekeeper.scoring.club_state import PARTS, FiguresState
from scorekeeper.scoring.rating_quality import PredictionQuality

#: The layout of a stored checkpoint (a pickled ``FiguresState``): raise it whenever
#: ``FiguresState`` or what it holds changes; checkpoints of another format are not read.
FORMAT = 5  # 5: the chelems and petits au bout in arrays, the evenings of the last ones alone

#: How long tonight's state stays in the cache: a few deals' time.
TONIGHT_SECONDS = 3600


class ClubFigures:
    """A range's figures: its evenings by id, a key that names them, and the state after
    its deals, folded only when first asked for (a page whose fragment is cached by ``key``
    never folds it)."""

    def __init__(
        self,
        club_id: int,
        evenings: dict[int, EveningMark],
        key: str,
        latest: dt.date | None,
        fold: Callable[[], FiguresState],
        settled: str = "",
    ) -> None:
        self.club_id = club_id
        self.evenings = evenings
        self.key = key  # names the figures: equal keys, equal figures
        self.latest = latest
        self._fold = fold
        self.settled = settled  # names the evenings before the latest date, at their versions

    @functools.cached_property
    def state(self) -> FiguresState:
        return self._fold()

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
    return _digest([repr(mark.content) for mark in marks])


def _digest(contents: Sequence[str]) -> str:
    """``digest`` from each mark's ``repr(content)``, written out once for two names."""
    listed = "[" + ", ".join(contents) + "]"
    return hashlib.sha1(listed.encode(), usedforsecurity=False).hexdigest()


def _checkpoint(
    club_id: int, start: dt.date | None, marks: Sequence[EveningMark], before: dt.date
) -> tuple[int, dt.date, str] | None:
    """The latest stored checkpoint of the range's evenings before ``before`` that still
    holds exactly these evenings at their versions (one query): its id, date and name."""
    rows = FiguresCheckpoint.objects.filter(
        club_id=club_id, start=start, format=FORMAT, through__lt=before
    )
    for pk, through, name in rows.order_by("-through").values_list("pk", "through", "name"):
        if name == digest([mark for mark in marks if mark.date <= through]):
            return pk, through, name
    return None


def _stored_state(found: tuple[int, dt.date, str] | None) -> FiguresState:
    """The checkpoint's state (one query), or a new state without one (or if gone since)."""
    if found is not None:
        rows = FiguresCheckpoint.objects.filter(pk=found[0]).values_list("state", flat=True)
        for state in rows:
            return pickle.loads(bytes(state))
    return FiguresState()


def _keep(
    club_id: int, start: dt.date | None, marks: Sequence[EveningMark], state: FiguresState
) -> None:
    """Store the state after ``marks`` (settled evenings) as a checkpoint at their last date;
    a race with another reader storing the same one is no harm."""
    through = marks[-1].date
    name = digest(marks)
    try:
        with transaction.atomic():
            FiguresCheckpoint.objects.filter(club_id=club_id, start=start).exclude(
                format=FORMAT
            ).delete()
            FiguresCheckpoint.objects.update_or_create(
                club_id=club_id,
                start=start,
                through=through,
                defaults={
                    "format": FORMAT,
                    "name": name,
                    "state": pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL),
                },
            )
    except IntegrityError:
        pass


def club_figures(
    club_id: int,
    *,
    start: dt.date | None = None,
    end: dt.date | None = None,
    part: str | None = None,
) -> ClubFigures:
    """The figures of the club's evenings from start to end (all time without dates): one
    query for their evenings and key; the state (``part`` alone: a page's) is folded when
    first read.

    The latest valid checkpoint of the settled evenings, with the deals after it folded in:
    tonight's deals alone on a club night. Settled evenings not yet in a checkpoint are folded
    month by month, each month kept as a checkpoint (a correction of an old deal folds again
    from the month before it, not from the first deal).
    """
    marks = evening_marks(club_id, start, end)
    evenings = {mark.evening_id: mark for mark in marks}
    if not marks:
        return ClubFigures(club_id, evenings, digest(()), None, FiguresState)
    contents = [repr(mark.content) for mark in marks]
    settled = bisect.bisect_left([mark.date for mark in marks], marks[-1].date)
    name = f"{club_id}.{start}.{_digest(contents[:settled])}"  # the settled evenings'
    fold = functools.partial(_fold, club_id, start, marks, name, part)
    return ClubFigures(club_id, evenings, _digest(contents), marks[-1].date, fold, name)


def _fold(
    club_id: int,
    start: dt.date | None,
    marks: Sequence[EveningMark],
    name: str,
    part: str | None,
) -> FiguresState:
    """The state after the evenings' deals (``part`` alone, or all): tonight's (the latest
    date's) folded on the settled evenings' state. Each part is kept in the cache under
    ``name`` (the settled evenings at their versions) with tonight's evenings at their
    versions and the keys of the deals it holds: tonight's evenings unchanged, no deal is
    read; those deals the first of tonight's (deals were added after them), only the later
    deals are read and folded into it, and no checkpoint is read; a fold from the checkpoint
    keeps every part."""
    latest = marks[-1].date
    settled = [mark for mark in marks if mark.date < latest]
    tonight = marks[len(settled) :]
    evenings = [mark.content for mark in tonight]
    key = f"figures.tonight.{part}.{name}"
    kept = cache.get(key) if part is not None else None
    if kept is not None and kept[0] == evenings:
        return kept[2]
    keys = read.deal_keys(tonight)
    if kept is not None and kept[1] == keys[: len(kept[1])]:
        state = kept[2]
        state.advance(map(read.deal_facts, read.new_rows(keys[len(kept[1]) :])), parts=(part,))
        cache.set(key, (evenings, keys, state), TONIGHT_SECONDS)
        return state
    rows = read.new_rows(keys)
    state = _settled(club_id, start, settled, latest).advance(map(read.deal_facts, rows))
    parts = {f"figures.tonight.{each}.{name}": (evenings, keys, state.part(each)) for each in PARTS}
    cache.set_many(parts, TONIGHT_SECONDS)
    return state


def _settled(
    club_id: int, start: dt.date | None, settled: Sequence[EveningMark], latest: dt.date
) -> FiguresState:
    """The state after the settled evenings: the latest valid checkpoint's, with the settled
    evenings after it folded month by month, each month kept as a checkpoint."""
    found = _checkpoint(club_id, start, settled, latest) if settled else None
    state = _stored_state(found)
    held = [mark for mark in settled if found is not None and mark.date <= found[1]]
    after = settled[len(held) :]
    facts = evening_facts(after)
    for _month_key, month in groupby(after, key=lambda mark: (mark.date.year, mark.date.month)):
        month_marks = list(month)
        state.advance(deal for mark in month_marks for deal in facts[mark.evening_id])
        state.settle()
        held.extend(month_marks)
        _keep(club_id, start, held, state)
    return state


def player_names(club_id: int) -> dict[int, str]:
    """The club's players by id (one query: a renamed player is renamed everywhere)."""
    return dict(Player.objects.filter(club_id=club_id).order_by().values_list("pk", "name"))
