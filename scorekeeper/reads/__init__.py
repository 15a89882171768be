"""The read side: what the pages show, computed from stored deals and cached by version.

Owns the per-evening figures (``tallies``: the aggregation; ``evening_tallies``: their
storage under each evening's version), a range's evenings fingerprinted as settled and
tonight's (``nights``), a season's sums (``periods``), the standings (``standings``), a
player's figures (``player_figures``), the score sheets (``game_sheets``), the charts
(``charts``, laid out by ``line_charts``, written as markup by ``chart_markup``), the deal
history (``deal_history``), the live poll (``live``), and what a club argues about: the
stored deals as the figures read them (``deal_facts``), the ratings, head to head, records
and contracts of a range, kept and extended (``club_figures``), their pages' rows
(``figures_pages``) and the evening ranking points (``evening_points``). May import:
``scorekeeper.scoring`` (pure rules), ``scorekeeper.models`` and ``scorekeeper.server``
(shared cache, parsing, queries compiled once). Never ``services`` (it writes nothing but
its own caches),
``exchange`` or ``screens``.
"""
