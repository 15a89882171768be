"""Settings to drive another checkout's app with this checkout's load test (``compare_main``).

Run in that checkout (its ``scorekeeper`` first on the path, this checkout's ``tools`` on
``PYTHONPATH``): its own settings, with this ``tools.bench`` installed ahead of its apps, so
that ``manage.py loadtest`` is this one (an older app may have a ``loadtest`` of its own).
The servers the load test starts run that checkout's app with its own settings.
"""

from __future__ import annotations

import scorekeeper.settings as _app

globals().update({name: value for name, value in vars(_app).items() if name.isupper()})
INSTALLED_APPS = ["tools.bench", *(app for app in _app.INSTALLED_APPS if app != "tools.bench")]
