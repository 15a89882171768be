"""The club archive on the web: the owner downloads it; anyone signed in restores one as a new
club of which they are the owner (the archived members are invited again)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scorekeeper import archives
from scorekeeper.access import owner_membership_for
from scorekeeper.scoring.errors import ScoringError

MAX_ARCHIVE_BYTES = 8 * 1024 * 1024


class ArchiveForm(forms.Form):
    prefix = "archive"

    file = forms.FileField(
        label=gettext_lazy("A club archive"),
        help_text=gettext_lazy("The .json file downloaded from a club's page (8 MB at most)."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_ARCHIVE_BYTES:
            raise forms.ValidationError(_("This file is too large (8 MB at most)."))
        return upload


@require_http_methods(["GET", "HEAD"])
def club_archive_download(request: HttpRequest, club_id: int) -> HttpResponse:
    membership = owner_membership_for(request, club_id)
    response = HttpResponse(archives.dump_archive(membership.club), archives.JSON_CONTENT_TYPE)
    filename = archives.archive_filename(membership.club)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_restore(request: HttpRequest) -> HttpResponse:
    form = ArchiveForm(request.POST or None, request.FILES or None)
    problem = ""
    if request.method == "POST" and form.is_valid():
        try:
            archive = archives.read_archive(
                form.cleaned_data["file"].read(), max_deals=archives.ARCHIVE_MAX_DEALS
            )
            club = archives.archive_import(
                archive=archive, owner=request.user, restore_members=False
            )
        except ScoringError as error:
            problem = archives.refusal_text(error)
        else:
            messages.success(request, _("The club %(name)s is ready.") % {"name": club.name})
            return redirect("club", club.pk)
    context = {"form": form, "problem": problem, "max_deals": archives.ARCHIVE_MAX_DEALS}
    return render(request, "scorekeeper/club_restore.html", context)
