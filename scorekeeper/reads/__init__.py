"""The read side: what the pages show, read from what the writes keep (standings, player
figures, score sheets, charts, deal history, the club figures folded from a stored
checkpoint). Imports only ``scoring``, ``models`` and ``server``.
"""
