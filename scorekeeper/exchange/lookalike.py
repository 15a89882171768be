"""Names that look alike but are different text ("Аna" with a Cyrillic А beside "Ana"),
by UTS #39 skeletons, and names mixing scripts: the import preview warns of them."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from scorekeeper.scoring.inputs import name_key

# Cyrillic and Greek letters drawn as Latin ones (a subset of Unicode's confusables.txt).
_LATIN_LOOKALIKES = str.maketrans(
    {
        **dict(zip("АВЕКМНОРСТХУЅІЈ", "ABEKMHOPCTXYSIJ", strict=True)),
        **dict(zip("аеорсухѕіјһԁԛԝ", "aeopcyxsijhdqw", strict=True)),
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),
        **dict(zip("οικνρτυχ", "oikvptux", strict=True)),
    }
)
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def skeleton(name: str) -> str:
    return unicodedata.normalize("NFC", name).translate(_LATIN_LOOKALIKES).casefold()


def scripts(name: str) -> set[str]:
    """The alphabets among Latin, Cyrillic and Greek whose letters the name uses."""
    found = set()
    for char in name:
        if char.isalpha():
            word = unicodedata.name(char, "").split(" ", 1)[0]
            if word in _SCRIPTS:
                found.add(word)
    return found


def mixes_scripts(name: str) -> bool:
    return len(scripts(name)) > 1


def lookalikes(new: Iterable[str], known: Iterable[str]) -> list[tuple[str, str]]:
    """(new name, the name it looks like): against the known names and the other new ones."""
    by_skeleton: dict[str, str] = {}
    for name in known:
        by_skeleton.setdefault(skeleton(name), name)
    pairs = []
    for name in new:
        other = by_skeleton.get(skeleton(name))
        if other is not None and name_key(other) != name_key(name):
            pairs.append((name, other))
        by_skeleton.setdefault(skeleton(name), name)
    return pairs
