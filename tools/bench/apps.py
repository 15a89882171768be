from __future__ import annotations

from django.apps import AppConfig


class BenchConfig(AppConfig):
    """The benchmark and the load test as a development app: ``manage.py benchmark``,
    ``loadtest`` and ``rating_quality``. Installed with DEBUG or DEV_TOOLS=1 (settings.py),
    never by production's settings."""

    name = "tools.bench"
    label = "bench"
    verbose_name = "Benchmark and load test"
