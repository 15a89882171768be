"""ASGI entry point of the live polls' own process: ``uvicorn scorekeeper.asgi_polls:application``.

nginx sends it the phones' live polls (``/evenings/<id>/live/``, ``/shared/<token>/live/``);
it answers "nothing changed" (304) itself and every other poll with 404, on which nginx
hands the request to gunicorn (README, "Deployment"). See ``screens.table.live_shortcut``.
"""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
# The poll's check calls Django's blocking code from the event loop's thread, to its end
# before the loop goes on: one check at a time, on one connection never shared between
# threads (``LivePolls``). That is the case Django's guard against sync calls from async
# code leaves to the application.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
django.setup()

from scorekeeper.screens.table.live_shortcut import LivePolls  # noqa: E402

application = LivePolls()
