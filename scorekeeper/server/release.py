"""The release this process serves, part of every cache key: ``RELEASE`` from the
environment, else a digest of the app's Python, templates, static files and ``.po`` files
(docs/architecture.md, "The one caching rule").
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

import django
from django.core.exceptions import ImproperlyConfigured

#: The folders under the project's root that the app is made of.
FOLDERS = ("accounts", "scorekeeper", "templates", "locale")
_SKIPPED_SUFFIXES = {".pyc", ".mo"}
_RELEASE = re.compile(r"[A-Za-z0-9._-]{1,64}")


def _files(root: Path) -> Iterable[Path]:
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            skipped = path.suffix in _SKIPPED_SUFFIXES or "__pycache__" in path.parts
            if path.is_file() and not skipped:
                yield path


def source_digest(root: Path) -> str:
    """A digest of the app's files under ``root`` (their names and contents) and of
    Django's version: 12 hexadecimal digits."""
    digest = hashlib.sha256(django.get_version().encode())
    for path in _files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def release(named: str, root: Path) -> str:
    """``named`` (the RELEASE variable) if set, else the digest of the app's files."""
    if not named:
        return source_digest(root)
    if not _RELEASE.fullmatch(named):
        raise ImproperlyConfigured(f"RELEASE: {named!r} is not 1 to 64 of A-Z a-z 0-9 . _ -")
    return named
