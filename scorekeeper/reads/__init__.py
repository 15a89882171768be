"""The read side: what the pages show, computed from stored deals and cached by version.

Owns the statistics and standings, the score sheets, the charts, the deal history and the live
poll. May import: ``scorekeeper.scoring`` (pure rules), ``scorekeeper.models`` and
``scorekeeper.server`` (shared cache, parsing). Never ``services`` (it writes nothing but its
own caches), ``exchange`` or ``screens``.
"""
