"""The benchmark and load-test machinery, apart from the code that serves requests.

Owns the synthetic club (``synthetic_club``), the throw-away databases (``databases``), the
in-process timing of pages (``pages``, ``imports``, ``benchmark_run``, ``urls``), and the
load test: its tables playing (``load_club``), what they send (``load_scenarios``), a
tournament's round ending (``load_tournament``), wrk (``wrk``), the servers on loopback and
their CPU time (``local_servers``) and one run (``load_run``).

It is a tool, so it may import everything (models, services, reads, exchange, scoring,
server, the URLs). Nothing in the serving code imports it: only the ``benchmark`` and
``loadtest`` commands and the tests do.
"""
