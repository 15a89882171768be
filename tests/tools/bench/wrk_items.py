"""A load test's request (an item wrk sends) sent through Django's test client instead."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.test import Client

from tools.bench.load_scenarios import Kind


def client_for(item: dict[str, Any]) -> tuple[Client, dict[str, str]]:
    """A test client carrying the item's cookies, and its other headers as Django's META."""
    client = Client()
    headers = dict(item["headers"])
    for part in headers.pop("Cookie", "").split("; "):
        if part:
            name, value = part.split("=", 1)
            client.cookies[name] = value
    meta = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()}
    meta.pop("HTTP_CONTENT_TYPE", None)
    return client, meta


def send(kind: Kind, item: dict[str, Any]) -> HttpResponse:
    """The item's request as wrk sends it (a poll with If-None-Match: its version)."""
    client, meta = client_for(item)
    path = item["path"]
    if "version" in item:
        meta["HTTP_IF_NONE_MATCH"] = f'"{item["version"]}"'
        path += f"?since={item['since']}"
    if kind.method == "POST":  # a duplicate table's save: its next case, as wrk adds it
        body = item["body"] + (f"&deal-case_number={item['cases'][0]}" if "cases" in item else "")
        return client.post(path, body, content_type="application/x-www-form-urlencoded", **meta)
    return client.get(path, **meta)
