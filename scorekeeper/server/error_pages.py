"""The error pages' views (``handler400``, ``handler403``, ``handler404``, ``handler500`` in
``scorekeeper.urls``): Django's own, rendering the templates of the same names, but never
reading the request's body.

Django wraps its error views in ``requires_csrf_token``, which runs the CSRF check on the
request before the page (and throws its verdict away). For a POST with a ``csrftoken``
cookie, that check reads the form: a body Django cannot parse (a multipart body without a
valid boundary, too many files, a form not in UTF-8) raised inside the 404 page, and Django
answered a bare 500 (issue 38, item 10), or, when the 400 page and then the 500 page raised
the same, nothing at all. An error page needs no check: the site-wide ``CsrfViewMiddleware``
has already read the cookie, and a template's ``{% csrf_token %}`` gets the token from it.
"""

from __future__ import annotations

import inspect

from django.http import HttpRequest, HttpResponse
from django.views import defaults

_bad_request = inspect.unwrap(defaults.bad_request)
_permission_denied = inspect.unwrap(defaults.permission_denied)
_page_not_found = inspect.unwrap(defaults.page_not_found)
_server_error = inspect.unwrap(defaults.server_error)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    return _server_error(request)
