"""The server's plumbing: environment, security headers, request log, shared cache, health,
the parsing of ids in URLs, and queries compiled once and run again (``prepared``).

It owns nothing of the game and may import only Django and the standard library: no module of
the domain (models, scoring, services, reads, exchange, screens) is imported here.
"""
