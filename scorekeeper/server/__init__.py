"""The server's plumbing: environment, security headers, request log, shared cache, health,
ids in URLs, wording, error pages and gunicorn's worker. Imports no domain code."""
