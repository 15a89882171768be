"""How soon a tournament's public ranking shows a deal saved at one of its tables, under load.

While wrk sends the load, ``follow`` goes round the probes' tables: every ``PROBE_EVERY``
seconds it reads the ranking, saves a deal as the table's phone saves it, then reads the
ranking every ``READ_EVERY`` seconds until the taker's row changed (a duplicate table's probe
stops when its cases are all played). Each lag is counted from the save's answer; a phone
polling the ranking every ``LIVE_SECONDS`` shows it at most that much later (``shown_within``).
"""

from __future__ import annotations

import re
import time
import urllib.request
from dataclasses import dataclass
from typing import Any

from scorekeeper.screens.tournaments.views import LIVE_SECONDS

PROBE_EVERY = 3.0  # seconds between two probes' saves
READ_EVERY = 0.1  # seconds between two reads of the ranking after a save
GIVE_UP = 30.0  # seconds after which a save not shown counts as this lag


@dataclass(frozen=True)
class Probe:
    name: str  # the tournament's: free, duplicate
    ranking: str  # the public ranking's path
    save: dict[str, Any]  # the table's save, as its phone sends it (``load_scenarios._saves``)
    taker: str  # the player whose total each save moves


def _row(origin: str, probe: Probe) -> str | None:
    """The taker's row as the ranking's live part shows it (his total in it)."""
    request = urllib.request.Request(origin + probe.ranking, headers={"HX-Request": "true"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        html = answer.read().decode()
    found = re.search(f'<tr[^>]*data-player="{re.escape(probe.taker)}".*?</tr>', html, re.DOTALL)
    return found.group(0) if found else None


def _save(origin: str, probe: Probe, key: str, case: int | None) -> None:
    """The table's deal, saved as deal-entry.js sends it (as wrk's script does)."""
    item = probe.save
    since = int((time.time() - item["since_ago"]) * 1000)
    body = f"{item['body']}&deal-idempotency_key={key}&sheet-since={since}"
    if case is not None:
        body += f"&deal-case_number={case}"
    request = urllib.request.Request(
        origin + item["path"], data=body.encode(), headers=item["headers"], method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        answer.read()


def follow(origin: str, probes: list[Probe], seconds: float) -> dict[str, list[float]]:
    """For ``seconds``, the probes' saves in turn; each tournament's lags, in seconds."""
    lags: dict[str, list[float]] = {probe.name: [] for probe in probes}
    end = time.monotonic() + seconds
    turn = 0
    while probes and time.monotonic() + PROBE_EVERY < end:
        probe = probes[turn % len(probes)]
        cases = probe.save.get("cases")
        if cases is not None and len(lags[probe.name]) >= len(cases):
            probes = [other for other in probes if other is not probe]  # its cases all played
            continue
        started = time.monotonic()
        before = _row(origin, probe)
        case = cases[len(lags[probe.name])] if cases is not None else None
        _save(origin, probe, f"probe{turn}x{int(time.time())}", case)
        saved = time.monotonic()
        while time.monotonic() - saved < GIVE_UP and _row(origin, probe) == before:
            time.sleep(READ_EVERY)
        lags[probe.name].append(min(time.monotonic() - saved, GIVE_UP))
        turn += 1
        time.sleep(max(0.0, started + PROBE_EVERY - time.monotonic()))
    return lags


def shown_within(lags: list[float]) -> float:
    """The longest a phone on the ranking page waits to see a save: the worst lag, and a
    whole poll interval."""
    return max(lags, default=0.0) + LIVE_SECONDS
