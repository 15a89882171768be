"""A table's phone after its round closed: the pages its link opened say so in words.

The views a table's link opens (``access.TABLE_GRANT_VIEWS``) are wrapped in
``round_closed_answer``: when the access check finds this phone's table closed
(``access.TableRoundClosed``), the answer says so instead of a bare 404. A deal sent to be
saved (``deal_create``) comes back as it was typed, with nothing to tap that would save it:
in place with 409 for htmx (the page's htmx swaps a 409; the offline queue marks the deal
for attention), as a page with 410 without script; every other view answers 410, the link
is gone for good.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scorekeeper.screens.access import TableRoundClosed
from scorekeeper.screens.table.evening_page import deal_form

TEMPLATE = "scorekeeper/tournaments/table_round_closed.html"

View = Callable[..., HttpResponse]


def round_closed_answer(view: View) -> View:
    """Wrap a view a table's link opens: its round closed, a worded answer."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except TableRoundClosed as closed:
            return _answer(request, closed)

    return wrapped


def _answer(request: HttpRequest, closed: TableRoundClosed) -> HttpResponse:
    table = closed.table
    match = request.resolver_match
    url_name = match.url_name if match is not None else ""
    context: dict[str, Any] = {"tournament": table.round.tournament, "table": table}
    if url_name == "deal_create" and request.method == "POST":
        form = deal_form(request, table.game, data=request.POST)
        form.is_valid()  # the answers as typed, each next to its question
        context.update(form=form, game=table.game)
        if request.htmx:
            return render(request, f"{TEMPLATE}#entry", context, status=409)
    elif request.htmx:
        return render(request, f"{TEMPLATE}#words", context, status=410)
    return render(request, TEMPLATE, context, status=410)
