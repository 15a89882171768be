"""The data exchange: club archives, deal sheets, CSV both ways, exports and the texts of
refusals.

Turns files into the inputs the services store, and stored data into files. May import
``scoring``, ``models``, ``server``, ``reads`` and ``services`` (every write goes through
``services``). Never ``screens``.
"""
