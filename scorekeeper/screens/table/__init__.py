"""The table: an evening, its games, who sits where, and the deals entered, corrected and
restored (the phone at the table).

May import the rules (scoring), the writes (services), the reads and screens.access.

What the server and the phone's scripts agree on (comments elsewhere name them so):
- The deal-number check: a new deal's form carries its deal number and a one-time key.
  A save whose number another phone took meanwhile answers 409 with header
  X-Deal-Conflict and the question (_deal_conflict.html); a refused save answers 422
  with the form; the same key sent again is "already saved" (services.deals).
- The save-failed hand-off: a new-deal form is `#deal-form-<game id>`; when its save gets
  no answer, net-failures.js fires the cancelable `scorekeeper:save-failed` event on it,
  and the offline queue (deal-queue.js) may keep the deal and call preventDefault.
- The no-inline rule: the Content-Security-Policy has no 'unsafe-inline'; no inline
  script, style attribute or handler, in templates or set by scripts.
- The live poll: live.js asks the live URL with If-None-Match: "<the version it shows>";
  after the access check, 304 means nothing changed (server.conditional), else the
  changed parts come back.
- The live events: `#live-totals` names `data-events-url`; an ASGI server streams there
  `event: version` / `data: <version>` now and at each change (evening_events), where
  live.js then polls once; any other answer (204 under WSGI) sends the page back to its
  timed polls.
"""
