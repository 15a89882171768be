"""``/healthz``: 503 only when the database does not answer. The shared cache (Redis) is
reported ("degraded"), not required: every server shares it, and a 503 would drop them all."""

from __future__ import annotations

import logging
import uuid

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

logger = logging.getLogger(__name__)


def _one_line(error: BaseException) -> str:
    return f"{type(error).__name__}: {' '.join(str(error).split())}"[:300]


@never_cache
@require_http_methods(["GET", "HEAD"])
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers a query ("status": "ok", or "degraded" when the cache
    keeps nothing: "cache": "down"); 503 when it does not."""
    checks: dict[str, str] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        checks["database"] = "ok"
    except Exception as error:  # any failure is the answer, never a 500
        # One line, no traceback: the monitoring asks every few seconds while it is down.
        logger.error("healthz: the database does not answer: %s", _one_line(error))
        checks["database"] = "error"
    try:
        probe = f"healthz.{uuid.uuid4().hex}"  # its own key: other servers probe too
        cache.set(probe, 1, 30)
        # A Redis that is down answers as an empty cache (its backend logs it, once).
        checks["cache"] = "ok" if cache.get(probe) == 1 else "down"
        cache.delete(probe)
    except Exception as error:
        logger.error("healthz: the cache does not answer: %s", _one_line(error))
        checks["cache"] = "down"
    if checks["database"] != "ok":
        status = "error"
    else:
        status = "ok" if checks["cache"] == "ok" else "degraded"
    return JsonResponse({"status": status, **checks}, status=503 if status == "error" else 200)
