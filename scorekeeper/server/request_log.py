"""Logs: one line per request with its timing (``RequestLogMiddleware``, first in
MIDDLEWARE, kept when ``LOG_REQUESTS``), and a JSON formatter (``LOG_FORMAT=json``)."""

from __future__ import annotations

import datetime as dt
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.functional import empty

logger = logging.getLogger("scorekeeper.requests")

_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


class RequestLogMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not logger.isEnabledFor(logging.INFO):
            return self.get_response(request)
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = round((time.perf_counter() - started) * 1000, 2)
        user = getattr(request, "user", None)
        wrapped = getattr(user, "_wrapped", user)  # not looked at by the view: not loaded here
        user_id = getattr(wrapped, "pk", None) if wrapped is not empty else None
        size = len(response.content) if not response.streaming else None
        log_request(request.method, request.path, response.status_code, elapsed, user_id, size)
        return response


def log_request(
    method: str | None,
    path: str,
    status: int,
    elapsed_ms: float,
    user_id: object = None,
    size: int | None = None,
) -> None:
    """The request's line (the middleware's, and the answers given before Django's handler)."""
    logger.info(
        "%s %s %s %.2fms",
        method,
        path,
        status,
        elapsed_ms,
        extra={
            "method": method,
            "path": path,
            "status": status,
            "ms": elapsed_ms,
            "user_id": user_id,
            "bytes": size,
        },
    )


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the extra fields, the error."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key in _STANDARD or key.startswith("_"):
                continue
            if key == "request" and isinstance(value, HttpRequest):  # django.request's errors
                data["method"] = value.method
                data["path"] = value.get_full_path()
                user = getattr(value, "user", None)
                data["user_id"] = getattr(user, "pk", None) if user is not None else None
                continue
            data[key] = value if isinstance(value, str | int | float | bool | None) else str(value)
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            data["error"] = record.exc_text
        return json.dumps(data, ensure_ascii=False, default=str)
