"""The one caching rule: every cache key carries the release, so that a new release never
reads what an older one cached (its HTML made from other templates, its pickled objects)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured

from scorekeeper.server.release import FOLDERS, release, source_digest
from tests.scorekeeper.server.test_production_setup import settings_line

ROOT = Path(__file__).resolve().parents[3]
PREFIXES = "' '.join(cache['KEY_PREFIX'] for cache in s.CACHES.values())"


def test_every_cache_writes_under_a_key_that_names_the_release() -> None:
    assert settings.RELEASE
    for alias in settings.CACHES:
        assert f".{settings.RELEASE}:" in caches[alias].make_key("sheet.1.2")


def test_two_releases_read_and_write_different_keys_of_one_redis() -> None:
    def keys(**variables: str) -> list[str]:
        line = settings_line(PREFIXES, REDIS_URL="redis://127.0.0.1:6379/0", **variables)
        assert line.returncode == 0, line.stderr
        return line.stdout.split()

    old, new = keys(RELEASE="2026.04.1"), keys(RELEASE="2026.04.2")
    assert len(old) == len(new) == 2  # the default cache (fragments too) and the sessions'
    assert all("2026.04.1" in key for key in old) and all("2026.04.2" in key for key in new)
    assert not set(old) & set(new)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for folder in FOLDERS:
        (tmp_path / folder).mkdir()
    (tmp_path / "templates" / "page.html").write_text("<p>{{ total }}</p>")
    (tmp_path / "scorekeeper" / "views.py").write_text("x = 1\n")
    return tmp_path


def test_without_release_set_a_changed_template_is_a_new_release(tree: Path) -> None:
    before = release("", tree)
    (tree / "templates" / "page.html").write_text("<p>{{ total }} points</p>")
    assert release("", tree) != before


def test_compiled_files_do_not_change_the_release(tree: Path) -> None:
    before = source_digest(tree)
    (tree / "scorekeeper" / "__pycache__").mkdir()
    (tree / "scorekeeper" / "__pycache__" / "views.cpython-311.pyc").write_bytes(b"\0")
    (tree / "locale" / "django.mo").write_bytes(b"\1")
    assert source_digest(tree) == before
    shutil.copy(tree / "scorekeeper" / "views.py", tree / "scorekeeper" / "more.py")
    assert source_digest(tree) != before


def test_a_named_release_is_used_as_it_is_and_checked() -> None:
    assert release("3f2a9c1", ROOT) == "3f2a9c1"
    with pytest.raises(ImproperlyConfigured, match="RELEASE"):
        release("a release: with spaces", ROOT)
