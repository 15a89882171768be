"""Files out of the seasons screen: an evening's and a season's CSV and deal sheet JSON."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper.exchange import exports
from scorekeeper.exchange.game_data import CSV_CONTENT_TYPE, JSON_CONTENT_TYPE
from scorekeeper.models import Season
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.screens.access import evening_for, membership_for
from scorekeeper.server.parsing import parse_count


def _season(club_id: int, season_id: int) -> Season:
    return get_object_or_404(Season.objects.select_related("club"), pk=season_id, club_id=club_id)


def download(content: str, content_type: str, filename: str) -> HttpResponse:
    """A file to save as ``filename``: the text in UTF-8."""
    response = HttpResponse(content.encode("utf-8"), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _refused(error: ScoringError) -> HttpResponse:
    reason = exports.one_line(error)
    text = _("This cannot be exported as a deal sheet: %(reason)s") % {"reason": reason}
    return HttpResponse(text, status=409, content_type="text/plain; charset=utf-8")


@require_http_methods(["GET", "HEAD"])
def evening_export_csv(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, _membership = evening_for(request, evening_id)
    content = exports.evening_csv(evening)
    return download(content, CSV_CONTENT_TYPE, exports.evening_filename(evening, "csv"))


@require_http_methods(["GET", "HEAD"])
def evening_export_json(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening, _membership = evening_for(request, evening_id)
    number = parse_count(request.GET.get("game", "1"))
    if number is None:
        raise Http404
    try:
        content = exports.evening_json(evening, number)
    except ScoringError as error:
        if error.field == "game":
            raise Http404 from None
        return _refused(error)
    return download(content, JSON_CONTENT_TYPE, exports.evening_filename(evening, "json"))


@require_http_methods(["GET", "HEAD"])
def season_export_csv(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    membership_for(request, club_id)
    season = _season(club_id, season_id)
    content = exports.season_csv(season)
    return download(content, CSV_CONTENT_TYPE, exports.season_filename(season, "csv"))


@require_http_methods(["GET", "HEAD"])
def season_export_json(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    membership_for(request, club_id)
    season = _season(club_id, season_id)
    try:
        content = exports.season_json(season)
    except ScoringError as error:
        return _refused(error)
    return download(content, JSON_CONTENT_TYPE, exports.season_filename(season, "json"))
