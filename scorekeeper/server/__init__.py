"""The server's plumbing: environment, security headers, request log, shared cache, health,
the parsing of ids in URLs, wording (names in dictionary order, a label and its colon),
the error pages' views (``error_pages``, which never read the body), and gunicorn's worker
(``gunicorn_worker``, which reads a request to its end before closing).

It owns nothing of the game and may import only Django, gunicorn (for its worker) and the
standard library: no module of the domain (models, scoring, services, reads, exchange,
screens) is imported here.
"""
