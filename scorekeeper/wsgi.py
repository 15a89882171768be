"""WSGI entry point: ``gunicorn scorekeeper.wsgi``.

Django's application, with the live poll's "nothing changed" answered in front of it
(``screens.table.live_shortcut``: most of a club night's requests).
"""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

django_application = get_wsgi_application()  # sets Django up: the apps can be imported now

from scorekeeper.screens.table.live_shortcut import LivePollFirst  # noqa: E402

application = LivePollFirst(django_application)
