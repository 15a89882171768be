"""ASGI entry point for the live events alone (``uvicorn scorekeeper.asgi:application``; the
pages are gunicorn's). Persistent database connections off, as Django advises under ASGI."""

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
