"""The screens, grouped by what a user does; each keeps its thin views and forms together.
Only ``scorekeeper.urls`` imports them."""
