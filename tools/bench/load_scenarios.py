"""What the tables of ``manage.py loadtest`` send, kind by kind, and at what pace.

A deal saved every 2 minutes at each table, as the phone saves it (htmx, the answer in place);
five phones following each evening (``live``: an event stream each, held by
``event_streams``, the changed rows fetched after a deal; or a poll every 4 s, 304 when nothing
changed, the changed rows after a deal); an evening page loaded whole once per deal; now and
then someone looking at the season (with ``--figures``, as often at what the club argues
about: ratings, head to head, records); the login page alongside as the yardstick. Each kind
is a list of requests (path, headers, body) that wrk sends in turn.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.reads.sheet_changes import as_of_now
from tools.bench.load_club import DEAL_EVERY, PHONES, Table
from tools.bench.synthetic_club import deal_form

POLL_EVERY = 4.0  # seconds between two polls of a phone
#: How the phones follow their evening: events, an event stream each (held by
#: ``event_streams``, the rows fetched after each new version); poll, a poll every 4 s (the
#: pages' fallback, and the only way of an app before the event streams).
LIVE = ("events", "poll")
UPDATE_SINCE = 2 * int(DEAL_EVERY)  # a "live update" phone's page is this old (seconds)
CSRF_SECRET = "loadtestcsrfsecret00000000000000"  # 32 characters: an unmasked CSRF secret
GZIP = {"Accept-Encoding": "gzip"}

Item = dict[str, Any]


@dataclass
class Kind:
    """One kind of request and its pace: ``rate`` requests a second over ``connections``."""

    name: str
    items: list[Item]
    rate: float
    connections: int
    expect: tuple[int, ...]
    method: str = "GET"
    threads: int = 1
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def follows_versions(self) -> bool:
        """A live poll: wrk's script follows the version and moment each answer gives."""
        return self.name.endswith("live poll")

    @property
    def mean_delay_ms(self) -> int:
        return max(1, int(self.connections / self.rate * 1000))


def cookie(session: str) -> str:
    return f"sessionid={session}; csrftoken={CSRF_SECRET}"


def kinds(seats: list[Table], *, figures: bool = False, live: str = "poll") -> list[Kind]:
    """Every kind of request of ``seats`` tables playing, with its pace; ``figures``: the
    club's figures pages too, looked at as often as the season; ``live`` (``LIVE``): how the
    phones follow their evening."""
    tables = len(seats)
    deal_rate = tables / DEAL_EVERY
    if live == "events":
        # After a deal, every phone but the scorer's (it has the rows from its save) hears
        # the new version on its stream and fetches the new rows.
        following = [
            Kind(
                "live update (200)",
                _updates(seats),
                deal_rate * (PHONES - 1),
                max(1, tables // 20),
                (200,),
            )
        ]
    elif live == "poll":
        # After a deal, four phones need the new rows: the scorer's has them from its save
        # (its next poll is a 304). A thread's first poll after the deal gets them (wrk runs
        # 2 threads, each following the versions it saw); the other two phones' new sheets
        # are the "live update" requests.
        following = [
            Kind(
                "live poll",
                _polls(seats),
                tables * PHONES / POLL_EVERY,
                tables * PHONES,
                (200, 304),
                threads=2,
            ),
            Kind(
                "live update (200)",
                _updates(seats),
                deal_rate * (PHONES - 1 - 2),
                max(1, tables // 20),
                (200,),
            ),
        ]
    else:
        raise ValueError(f"live: {live!r}, not one of {LIVE}")
    sent = [
        *following,
        Kind("deal save", _saves(seats), deal_rate, max(1, tables // 40), (200,), method="POST"),
        Kind("evening page", _evening_pages(seats), deal_rate, max(1, tables // 40), (200,)),
        Kind("season standings", _season_pages(seats), max(0.2, tables / 400), 1, (200,)),
        Kind("login page", [{"path": "/login/", "headers": GZIP}], 2.0, 1, (200,)),
    ]
    if figures:
        pages = _figures_pages(seats)
        sent.insert(-1, Kind("club figures", pages, max(0.2, tables / 400), 1, (200,)))
    return sent


def streams(seats: list[Table]) -> list[tuple[str, str]]:
    """Every phone's event stream of its evening: its address and the phone's cookie."""
    return [
        (f"/evenings/{t.evening_id}/events/", cookie(session))
        for t in seats
        for session in t.cookies
    ]


def _polls(seats: list[Table]) -> list[Item]:
    """Every phone's poll of its evening, from the version and the moment (``since``, the
    page's as live.js sends it) the phones start from.

    In the order wrk sends them: the first phone of every table, then the second..., so
    that the phones of a table poll at different moments as real phones do (each from the
    time its page was opened); side by side, the five would all be asking when a deal is
    saved and all get the new rows, where one poll of each thread does."""
    drawn = as_of_now()
    return [
        {
            "path": f"/evenings/{t.evening_id}/live/",
            "version": t.version,
            "since": drawn,
            "headers": {"Cookie": cookie(t.cookies[phone]), "HX-Request": "true"},
        }
        for phone in range(PHONES)
        for t in seats
    ]


def _updates(seats: list[Table]) -> list[Item]:
    """A phone's poll that gets the new sheet (version 0 is always behind): what changed in
    the last ``UPDATE_SINCE`` seconds, as a phone that woke up after a deal or two asks."""
    return [
        {
            "path": f"/evenings/{t.evening_id}/live/?version=0",
            "since_ago": UPDATE_SINCE,
            "headers": {"Cookie": cookie(t.cookies[1]), "HX-Request": "true", **GZIP},
        }
        for t in seats
    ]


def _saves(seats: list[Table], cases: dict[int, list[int]] | None = None) -> list[Item]:
    """The scorer's deal form posted as deal-entry.js posts it: through htmx, with the moment
    of the sheet on screen (the last save's, a deal ago); the answer is the next deal's form
    and the changed rows. wrk adds an idempotency key to each, and a duplicate tournament
    table's next case (``cases``: those left, by evening), as the form prefills it."""
    return [
        {
            **({"cases": cases[t.evening_id]} if cases and cases.get(t.evening_id) else {}),
            "path": f"/evenings/{t.evening_id}/games/{t.game_id}/deals/",
            "body": "&".join(f"{k}={v}" for k, v in deal_form(t.present).items()),
            "since_ago": int(DEAL_EVERY),
            "headers": {
                "Cookie": cookie(t.cookies[0]),
                "X-CSRFToken": CSRF_SECRET,
                "Content-Type": "application/x-www-form-urlencoded",
                "HX-Request": "true",
            },
        }
        for t in seats
    ]


def _evening_pages(seats: list[Table]) -> list[Item]:
    """An evening page loaded whole (a phone joining or reloading), once per deal a table:
    its sheet is drawn anew after every save."""
    return [
        {"path": f"/evenings/{t.evening_id}/", "headers": {"Cookie": cookie(t.cookies[0]), **GZIP}}
        for t in seats
    ]


def _season_pages(seats: list[Table]) -> list[Item]:
    """The season's standings of the table's club, as a third phone of each table looks at
    them."""
    return [
        {
            "path": f"/clubs/{t.club_id}/seasons/{t.season_id}/",
            "headers": {"Cookie": cookie(t.cookies[2]), **GZIP},
        }
        for t in seats
    ]


#: What a club argues about, looked at during the night as the season is: the season's
#: ratings, head to head and records, each changed by every deal saved.
FIGURES_PAGES = ("ratings", "head-to-head", "records")


def _figures_pages(seats: list[Table]) -> list[Item]:
    """The season's ratings, head to head and records of the table's club in turn, as a
    fourth phone of each table looks at them."""
    return [
        {
            "path": f"/clubs/{t.club_id}/{FIGURES_PAGES[n % len(FIGURES_PAGES)]}/"
            f"?season={t.season_id}",
            "headers": {"Cookie": cookie(t.cookies[3]), **GZIP},
        }
        for n, t in enumerate(seats)
    ]


def warm_up(origin: str, seats: list[Table], *, figures: bool = False) -> None:
    """What a running server has: each evening's sheet rendered once, every phone let in
    (it opened the evening, then followed it), each club's season drawn once (``figures``:
    and the club's figures pages)."""
    for table in seats:
        for number, session in enumerate(table.cookies):
            shown = 0 if number == 0 else table.version  # the first phone draws the sheet
            request = urllib.request.Request(
                f"{origin}/evenings/{table.evening_id}/live/?version={shown}",
                headers={"Cookie": cookie(session), "HX-Request": "true"},
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    answer.read()
            except urllib.error.HTTPError as answer:  # 304: unchanged, and this phone let in
                if answer.code != 304:
                    raise
    first_of_club = {table.club_id: table for table in reversed(seats)}
    for table in first_of_club.values():
        for path in (
            f"/clubs/{table.club_id}/seasons/{table.season_id}/",
            *(
                f"/clubs/{table.club_id}/{page}/?season={table.season_id}"
                for page in (FIGURES_PAGES if figures else ())
            ),
        ):
            request = urllib.request.Request(
                f"{origin}{path}", headers={"Cookie": cookie(table.cookies[0])}
            )
            with urllib.request.urlopen(request, timeout=60) as answer:
                answer.read()
