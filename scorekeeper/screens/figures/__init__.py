"""What a club argues about: ratings, head to head and partners, records, contracts.

Thin views over ``scorekeeper.reads.club_figures`` (the figures) and
``scorekeeper.reads.figures_pages`` (their rows); only members of the club see them.
"""
