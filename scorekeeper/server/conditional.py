"""The polls' "nothing changed": a plain conditional GET. The view checks access first, then
answers 304 through Django's ``get_conditional_response`` while the ``ETag`` still names the
content; a refused poll gets the view's refusal, never a 304.
"""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers, quote_etag


def opaque_tag(name: str) -> str:
    """A tag for a content named by ``name`` (a cache key, say), which it does not show."""
    return hashlib.sha256(name.encode()).hexdigest()[:20]


def unchanged(request: HttpRequest, tag: str) -> HttpResponse | None:
    """Django's 304 when the GET or HEAD's ``If-None-Match`` names ``tag``, else None."""
    return get_conditional_response(request, etag=quote_etag(tag))


def tagged(response: HttpResponse, tag: str) -> HttpResponse:
    """The answer with its ``ETag``; it varies with ``HX-Request`` (a fragment and the whole
    page share an address: a browser never revalidates one with the other's tag)."""
    response.headers["ETag"] = quote_etag(tag)
    patch_vary_headers(response, ("HX-Request",))
    return response
