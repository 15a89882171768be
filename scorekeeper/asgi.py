"""ASGI entry point, for the live events alone: ``uvicorn scorekeeper.asgi:application``.

gunicorn (``scorekeeper.wsgi``) serves every page; this second process holds the phones' event
streams (``screens.table.evening_events``), nginx sending it their addresses
(docs/operations.md). Persistent database connections are off here, as Django advises under
ASGI: a request's thread lives no longer than its request.
"""

from __future__ import annotations

import os

import django
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
django.setup(set_prefix=False)
for database in settings.DATABASES.values():
    database["CONN_MAX_AGE"] = 0

application = ASGIHandler()
