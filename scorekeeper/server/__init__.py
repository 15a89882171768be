"""The server's plumbing: environment, security headers, request log, shared cache, health,
ids in URLs, wording, error pages, Django's locale and messages middleware made lighter and
gunicorn's worker. Imports no domain code."""
