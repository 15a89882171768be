"""``/healthz``: the load balancer's and the monitoring's question, "can this server work?"."""

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
    """200 when the database answers a query and the cache keeps a value; 503 else."""
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
        checks["cache"] = "ok" if cache.get(probe) == 1 else "error"
        cache.delete(probe)
    except Exception as error:
        logger.error("healthz: the cache does not answer: %s", _one_line(error))
        checks["cache"] = "error"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )
