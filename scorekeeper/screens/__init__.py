"""The screens, grouped by what a user does: the table and its deals, the counter, seasons
and players, clubs and joining, install and offline, the club figures.

Each screen keeps its views and forms together; views are thin (parse a form, call one service
or read, render). May import every wing below: ``exchange``, ``reads``, ``services``,
``scoring``, ``models`` and ``server``. Only ``scorekeeper.urls`` imports the screens.
"""
