"""The developers' tools, apart from the app: nothing in ``scorekeeper`` or ``accounts``
imports them (``lint-imports`` checks it).

Owns ``bench/`` (the benchmark and the load test, a Django app installed in development
only) and the scripts run by hand or by make (``apply_translations``, ``render_icons``).
"""
