"""The club archive on the web: the owner downloads it; anyone signed in restores one as a new
club of which they are the owner (the archived members are invited again)."""

from __future__ import annotations

import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scorekeeper.exchange import archives
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.screens.access import owner_membership_for

MAX_ARCHIVE_BYTES = 8 * 1024 * 1024
SESSION_KEY = "scorekeeper_archive_uploads"


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


def _waiting_room() -> Path:
    """Where an uploaded archive waits for its preview to be confirmed (an hour at most)."""
    folder = Path(tempfile.gettempdir()) / "scorekeeper-archives"
    folder.mkdir(mode=0o700, exist_ok=True)
    limit = time.time() - 3600
    for old in folder.glob("*.json"):
        if old.stat().st_mtime < limit:
            old.unlink(missing_ok=True)
    return folder


def _keep(content: bytes) -> str:
    token = secrets.token_urlsafe(18)
    (_waiting_room() / f"{token}.json").write_bytes(content)
    return token


def _kept(request: HttpRequest, token: str) -> bytes | None:
    """The archive this browser uploaded under ``token`` (its session lists its tokens)."""
    if token not in request.session.get(SESSION_KEY, []):
        return None
    path = _waiting_room() / f"{token}.json"
    return path.read_bytes() if path.exists() else None


def _preview(archive: archives.Archive) -> dict[str, Any]:
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
        "totals": sorted(totals.items(), key=lambda item: (-item[1], item[0].casefold())),
    }


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_restore(request: HttpRequest) -> HttpResponse:
    """Upload an archive, see what it holds, then confirm: the club is written only then."""
    form = ArchiveForm(request.POST or None, request.FILES or None)
    problem = ""
    preview = None
    token = request.POST.get("archive-token", "")
    if request.method == "POST" and token:
        content = _kept(request, token)
        if content is None:
            problem = _("This upload has expired: choose the file again.")
        else:
            try:
                archive = archives.read_archive(content, max_deals=archives.ARCHIVE_MAX_DEALS)
                club = archives.archive_import(
                    archive=archive, owner=request.user, restore_members=False
                )
            except ScoringError as error:
                problem = archives.refusal_text(error)
            else:
                (_waiting_room() / f"{token}.json").unlink(missing_ok=True)
                request.session[SESSION_KEY] = [
                    kept for kept in request.session.get(SESSION_KEY, []) if kept != token
                ]
                messages.success(request, _("The club %(name)s is ready.") % {"name": club.name})
                return redirect("club", club.pk)
        form = ArchiveForm()
    elif request.method == "POST" and form.is_valid():
        content = form.cleaned_data["file"].read()
        try:
            archive = archives.read_archive(content, max_deals=archives.ARCHIVE_MAX_DEALS)
        except ScoringError as error:
            problem = archives.refusal_text(error)
        else:
            preview = _preview(archive)
            token = _keep(content)
            request.session[SESSION_KEY] = [*request.session.get(SESSION_KEY, [])[-4:], token]
    context = {
        "form": form,
        "problem": problem,
        "preview": preview,
        "token": token if preview else "",
        "max_deals": archives.ARCHIVE_MAX_DEALS,
    }
    return render(request, "scorekeeper/clubs/restore.html", context)
