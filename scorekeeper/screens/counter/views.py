"""The counter page: a public calculator driven by the query string (GET only; the result
partial for htmx). From a deal form, it carries the form's ``deal-*`` fields and its
``return`` address, and hands the count back there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from scorekeeper.screens.counter.cards import TILES
from scorekeeper.screens.counter.counting import ATTACK, CONTRACTS, plain_points
from scorekeeper.screens.counter.forms import CounterForm
from scorekeeper.screens.counter.pairs import pair_table

DEAL_PREFIX = "deal-"
#: What the counter keeps when the count is cleared.
KEPT_ON_CLEAR = ("side", "mode", "contract", "attack_bouts")


def safe_return_url(value: str | None) -> str | None:
    """The deal form's address, if it is a path on this site; None otherwise."""
    if not value:
        return None
    value = value.strip()
    if not value.startswith("/") or not url_has_allowed_host_and_scheme(value, allowed_hosts=None):
        return None
    return value


def deal_parameters(query: QueryDict) -> list[tuple[str, str]]:
    """Every `deal-*` parameter of the query, in order, each value kept."""
    return [
        (key, value) for key in query if key.startswith(DEAL_PREFIX) for value in query.getlist(key)
    ]


def use_result_url(
    return_url: str, deal_params: Iterable[tuple[str, str]], points: Decimal, bouts: int
) -> str:
    """The deal form's address carrying its ``deal-*`` fields back (newer than its own), with
    the attack's points and bouts put in."""
    counted = {
        f"{DEAL_PREFIX}points": plain_points(points),
        f"{DEAL_PREFIX}points_for": ATTACK,
        f"{DEAL_PREFIX}bouts": str(bouts),
    }
    parts = urlsplit(return_url)
    params = [
        (key, value)
        for key, value in parse_qsl(parts.query, keep_blank_values=True)
        if not key.startswith(DEAL_PREFIX)
    ]
    done: set[str] = set()
    for key, value in deal_params:
        if key in counted:
            if key not in done:
                params.append((key, counted[key]))
                done.add(key)
        else:
            params.append((key, value))
    params.extend((key, value) for key, value in counted.items() if key not in done)
    return urlunsplit(("", "", parts.path, urlencode(params), parts.fragment))


def counter_data(query: QueryDict) -> QueryDict:
    """The form's data: the query, pre-filled from the deal form's fields on the way in."""
    data = query.copy()
    contracts = {value for value, _label in CONTRACTS if value}
    prefills = (
        ("contract", f"{DEAL_PREFIX}contract", contracts),
        ("attack_bouts", f"{DEAL_PREFIX}bouts", {"0", "1", "2", "3"}),
    )
    for name, deal_name, allowed in prefills:
        if name not in data and data.get(deal_name) in allowed:
            data[name] = data[deal_name]
    return data


def clear_url(
    query: QueryDict, return_url: str | None, deal_params: Sequence[tuple[str, str]]
) -> str:
    """The counter afresh, keeping the side, the way of counting and the deal form's fields."""
    params = [(key, query[key]) for key in KEPT_ON_CLEAR if query.get(key)]
    if return_url:
        params.append(("return", return_url))
    params.extend(deal_params)
    url = reverse("counter")
    return f"{url}?{urlencode(params)}" if params else url


@require_http_methods(["GET", "HEAD"])
def counter(request: HttpRequest) -> HttpResponse:
    if "csrfmiddlewaretoken" in request.GET:  # a deal form sent without JavaScript
        query = request.GET.copy()
        del query["csrfmiddlewaretoken"]
        return redirect(f"{request.path}?{query.urlencode()}")
    deal_params = deal_parameters(request.GET)
    return_url = safe_return_url(request.GET.get("return"))
    data = counter_data(request.GET)
    form = CounterForm(data)
    result = form.result
    use_url = None
    if return_url and result is not None and result.complete and result.attack_bouts is not None:
        use_url = use_result_url(return_url, deal_params, result.attack_points, result.attack_bouts)
    htmx = getattr(request, "htmx", None)
    partial = bool(htmx) and not htmx.history_restore_request  # type: ignore[union-attr]
    context = {
        "form": form,
        "result": result,
        "count": form.count_result,
        "deal_params": deal_params,
        "return_url": return_url,
        "use_url": use_url,
        "clear_url": clear_url(data, return_url, deal_params),
        "pair_table": pair_table(),
        "deck": TILES,
        "partial": partial,
    }
    template = (
        "scorekeeper/counter/counter.html#result" if partial else "scorekeeper/counter/counter.html"
    )
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response
