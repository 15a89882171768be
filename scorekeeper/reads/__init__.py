"""The read side: what the pages show, computed from stored deals and cached by version.

Owns the standings, added up from the evenings' figures the writes keep (``standings``), a
player's figures (``player_figures``), the score sheets (``game_sheets``), the charts
(``charts``, laid out by ``line_charts``, written as markup by ``chart_markup``), the deal
history (``deal_history``), the live poll (``live``), and what a club argues about: the
stored deals as the figures read them (``deal_facts``), the ratings, head to head, records
and contracts of a range, folded from a stored checkpoint (``club_figures``), their pages'
rows (``figures_pages``) and the evening ranking points (``evening_points``). May import:
``scorekeeper.scoring`` (pure rules), ``scorekeeper.models`` and ``scorekeeper.server``.
Never ``services``, ``exchange`` or ``screens``.
"""
