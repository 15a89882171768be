"""Tournaments: the organiser's pages (players, rounds, table cards, ranking, results; a
table's deals and their corrections, the seating search in ``fix_views``), a table's link
for the phone that scores it, and the public ranking.

Views parse a form and call one service (``services.tournaments``) or read
(``reads.tournaments``); the results file comes from ``exchange.tournament_csv``. May import
``scorekeeper.services``, ``reads``, ``exchange``, ``models`` and ``screens.access``. A
table's deals are entered through the evening pages of ``screens.table``, which the table's
link opens (``access.table_grant``).
"""
