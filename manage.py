#!/usr/bin/env python
"""Django's command-line utility for administrative tasks.

On a production box: ``ENV_FILE=/etc/scorekeeper.env .venv/bin/python manage.py ...`` reads
the same settings as the server (see docs/operations.md, "Deployment").
"""

from __future__ import annotations

import os
import sys

# Commands that sign nothing and send no mail: they run without SECRET_KEY.
SIGN_NOTHING = {"score_deals", "export_evening", "export_season", "rating_quality"}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    if len(sys.argv) > 1 and sys.argv[1] in SIGN_NOTHING:
        os.environ["SCOREKEEPER_COMMAND_SIGNS_NOTHING"] = "1"
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
