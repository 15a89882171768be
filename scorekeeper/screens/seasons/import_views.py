"""Files into the seasons screen: a deal sheet, a season file or a CSV as new evenings."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper.exchange import csv_format, sheet_import
from scorekeeper.exchange.game_data import CSV_CONTENT_TYPE
from scorekeeper.exchange.import_preview import import_preview
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.screens.access import membership_for
from scorekeeper.screens.seasons.export_views import download
from scorekeeper.screens.seasons.forms import ImportForm


@require_http_methods(["GET", "HEAD", "POST"])
def club_import(request: HttpRequest, club_id: int) -> HttpResponse:
    """A file into new closed evenings, all or nothing: the first post shows a preview, keeping
    the file in the text field; "Import" posts it again to write it."""
    membership = membership_for(request, club_id)
    club = membership.club
    form = ImportForm(request.POST or None, request.FILES or None)
    problem = ""
    preview = None
    if request.method == "POST" and form.is_valid():
        content = form.cleaned_data["content"]
        # "Skip them and import the rest": the preview's button for evenings already here.
        skip = request.POST.get(form.add_prefix("confirm")) == "skip"
        options = {
            "date": form.cleaned_data["date"],
            "place": form.cleaned_data["place"],
            "skip_existing": form.cleaned_data["skip_existing"] or skip,
        }
        try:
            entries = sheet_import.read_import(content)
            if not form.cleaned_data["confirm"]:
                try:
                    preview = import_preview(club=club, entries=entries, **options)
                except ScoringError as error:
                    raise sheet_import.refusal(error) from None
            else:
                evenings = sheet_import.import_entries(
                    club=club, entries=entries, created_by=request.user, **options
                )
        except sheet_import.ImportRefused as refused:
            problem = refused.text()
        if preview is not None or problem:
            # Keep what was sent in view, so that it can be confirmed or corrected here.
            data = request.POST.copy()
            if isinstance(content, bytes):
                data[form.add_prefix("text")] = content.decode("utf-8", errors="replace")
            data.pop(form.add_prefix("confirm"), None)
            form = ImportForm(data)
            form.is_valid()
        else:
            count = len(evenings)
            if count == 0:
                messages.info(request, _("Everything in this file is already here."))
                return redirect("club", club.pk)
            if count == 1:
                messages.success(request, _("The deal sheet is imported."))
                return redirect("evening", evenings[0].pk)
            messages.success(request, _("%(count)s evenings are imported.") % {"count": count})
            return redirect("club", club.pk)
    context = {
        "club": club,
        "membership": membership,
        "form": form,
        "problem": problem,
        "preview": preview,
        "max_deals": sheet_import.IMPORT_MAX_DEALS,
    }
    return render(request, "scorekeeper/seasons/import.html", context)


@require_http_methods(["GET", "HEAD"])
def import_template(request: HttpRequest, club_id: int) -> HttpResponse:
    """A spreadsheet to fill in with paper history: the CSV columns and two example rows."""
    membership_for(request, club_id)
    return download(csv_format.paper_template(), CSV_CONTENT_TYPE, "scorekeeper-paper-history.csv")
