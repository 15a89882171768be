"""What a gunicorn worker would build on its first requests, built once in the master before
it forks (``preload_app``: ``warm_up``), then kept out of the garbage collector's sight
(``freeze``: the workers share those pages and a full collection walks only their own).
"""

from __future__ import annotations

import gc
from pathlib import Path

from django.conf import settings
from django.template import engines
from django.urls import get_resolver, reverse
from django.utils import formats, translation


def warm_up() -> int:
    """Build what every worker needs; the number of templates compiled."""
    # The patterns, read once: every view module imported.
    get_resolver().url_patterns  # noqa: B018
    compiled = 0
    for engine in engines.all():
        for folder in engine.dirs:
            for path in Path(folder).rglob("*.html"):
                engine.get_template(str(path.relative_to(folder)))
                compiled += 1
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Scorekeeper")
            formats.get_format("DATE_FORMAT")
            reverse("home")  # the resolver's reverse tables, per language
    return compiled


def freeze() -> None:
    """Everything alive now: out of the collector's sight, for good (``gc.freeze``)."""
    gc.collect()
    gc.freeze()
