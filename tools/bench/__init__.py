"""The benchmark and the load test: a development app, apart from the code that serves requests.

Installed with DEBUG or DEV_TOOLS=1 (``scorekeeper/settings.py``), never by production's
settings. Owns the commands ``benchmark``, ``loadtest`` and ``rating_quality``
(``management/commands``: each parses and prints), the synthetic club (``synthetic_club``),
the throw-away databases (``databases``), the in-process timing of pages (``pages``,
``imports``, ``benchmark_run``, ``urls``), and the load test: its tables playing
(``load_club``), what they send (``load_scenarios``), a tournament's round ending
(``load_tournament``), wrk (``wrk``), the servers on loopback and their CPU time
(``local_servers``) and one run (``load_run``).

It is a tool, so it may import everything (models, services, reads, exchange, scoring,
server, the URLs). Nothing in ``scorekeeper`` or ``accounts`` imports it (``lint-imports``).
"""
