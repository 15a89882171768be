"""The club archive on the web: the owner downloads it; anyone signed in restores one as a new
club of which they are the owner (nobody is invited: the owner invites the members again)."""

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

from scorekeeper import services
from scorekeeper.exchange import archive_read, archive_write
from scorekeeper.exchange.archive_check import ARCHIVE_MAX_DEALS
from scorekeeper.exchange.game_data import JSON_CONTENT_TYPE
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.screens.access import owner_membership_for
from scorekeeper.screens.seasons.export_views import download
from scorekeeper.server.wording import name_order

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
    club = owner_membership_for(request, club_id).club
    content, filename = archive_write.dump_archive(club), archive_write.archive_filename(club)
    return download(content, JSON_CONTENT_TYPE, filename)


def _preview(archive: services.archives.Archive) -> dict[str, Any]:
    totals: dict[str, int] = {}
    for evening in archive.evenings:
        for game in evening.games:
            for deal in game.plan.deals:
                for name, score in deal.scores.items():
                    totals[name] = totals.get(name, 0) + score
    return {
        "name": archive.name,
        "evenings": len(archive.evenings),
        "deals": archive.deal_count,
        "players": [p[0] for p in archive.players],
        "members": len(archive.members) + len(archive.invitations),
        "totals": sorted(totals.items(), key=lambda item: (-item[1], name_order(item[0]))),
    }


def _restore(request: HttpRequest, token: str) -> HttpResponse | str:
    """Confirm: the waiting archive as a new club (once), or the problem to show."""
    try:
        restored = services.archive_restore(
            user=request.user, token=token, read=archive_read.read_kept
        )
    except services.ServiceError as error:
        return error.message
    except ScoringError as error:
        return archive_read.refusal_text(error)
    text = (
        _("The club %(name)s is ready.")
        if not restored.again
        else _("This archive is already restored: here is its club %(name)s.")
    )
    messages.success(request, text % {"name": restored.club.name})
    return redirect("club", restored.club.pk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_restore(request: HttpRequest) -> HttpResponse:
    """Upload an archive, see what it holds, then confirm: the club is written only then, the
    archive waiting meanwhile under a token only this account can restore, once."""
    form = ArchiveForm(request.POST or None, request.FILES or None)
    problem = ""
    status = 200
    preview = None
    token = request.POST.get("archive-token", "")
    if request.method == "POST" and token:
        answer = _restore(request, token)
        if isinstance(answer, HttpResponse):
            return answer
        problem = answer
        form = ArchiveForm()
    elif request.method == "POST" and form.is_valid():
        try:
            services.archive_upload_count(user=request.user)  # before the file is read
            archive, compact = archive_read.read_upload(form.cleaned_data["file"].read())
            token = services.archive_wait(user=request.user, compact=compact)
        except ScoringError as error:
            problem = archive_read.refusal_text(error)
        except services.UploadsLimited as error:
            problem, status = error.message, error.status
        except services.ServiceError as error:
            problem = error.message
        else:
            preview = _preview(archive)
    context = {
        "form": form,
        "problem": problem,
        "preview": preview,
        "token": token if preview else "",
        "max_deals": ARCHIVE_MAX_DEALS,
    }
    return render(request, "scorekeeper/clubs/restore.html", context, status=status)
