"""The data exchange: club archives, deal sheets, CSV both ways, exports and the texts of
refusals.

Turns files into the plain data the services store, and stored data into files; it writes
nothing itself. The club archive: ``archive_read`` (a file checked into an Archive),
``archive_check`` (its small checks), ``archive_write`` (the file out); deal sheets and
CSV: ``sheet_import`` (in), ``import_preview`` (what an import would write),
``exports`` and ``csv_format`` (out), ``game_data`` (games as stored, loaded for both).

May import ``scoring``, ``models``, ``server``, ``reads`` and ``services`` (every write
goes through ``services``, which never import this package). Never ``screens``.
"""
