"""Names, places and dates as every way in takes them: forms, imports, archives, CSV, commands.

One set of rules, so that what a form refuses no file can bring in:

- text is read in Unicode NFC ("Zoé" typed as e + combining accent is the same name), its runs
  of white space become one space, and it holds no control or invisible formatting character
  (NUL, a zero-width space...);
- a player's name has 1 to 40 characters, a place at most 80, a season's or a club's name 1
  to 80, a tournament's name 1 to 50 (its tables' evenings are named "name, round n, table t"
  in a place of 80: :func:`fitted` shortens the name should a longer one be stored);
- a date lies between the years 1900 and 2999 (what the evening form accepts);
- a federation licence number is empty, or 1 to 20 letters and digits (ASCII), kept in
  capitals (spaces, dots and dashes typed between them are left out).

Players are matched by :func:`name_key` (the NFC name, case folded).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import unicodedata

from scorekeeper.scoring.errors import ScoringError

NAME_MAX = 40
PLACE_MAX = 80
SEASON_NAME_MAX = 80
CLUB_NAME_MAX = 80
TOURNAMENT_NAME_MAX = 50
LICENCE_MAX = 20
FIRST_YEAR, LAST_YEAR = 1900, 2999


def _clean_text(value: object, field: str, *, limit: int, required: bool) -> str:
    if not isinstance(value, str):
        raise ScoringError.coded(field, "not_text", "%(value)s is not a string", value=repr(value))
    text = unicodedata.normalize("NFC", value)
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf") and char not in "\t\n\r":
            raise ScoringError.coded(
                field,
                "control_character",
                "%(value)s holds an invisible or control character (U+%(point)s)",
                value=repr(value),
                point=f"{ord(char):04X}",
            )
    text = " ".join(text.split())
    if required and not text:
        raise ScoringError.coded(field, "empty", "cannot be empty")
    if len(text) > limit:
        raise ScoringError.coded(
            field,
            "too_long",
            "%(value)s is longer than %(limit)s characters",
            value=text,
            limit=limit,
        )
    return text


def clean_name(value: object, field: str = "players") -> str:
    """A player's name as it is stored: NFC, single spaces, 1 to 40 characters."""
    return _clean_text(value, field, limit=NAME_MAX, required=True)


def clean_licence(value: object, field: str = "licence") -> str:
    """A federation licence number: empty, or 1 to 20 ASCII letters and digits, in capitals;
    the spaces, dots and dashes a card prints between them are left out."""
    if value is None:
        return ""
    text = _clean_text(value, field, limit=LICENCE_MAX * 2, required=False)
    text = "".join(char for char in text if char not in " .-").upper()
    if not all(char.isascii() and char.isalnum() for char in text):
        raise ScoringError.coded(
            field, "licence_chars", "%(value)s: only letters and digits", value=value
        )
    return _clean_text(text, field, limit=LICENCE_MAX, required=False)  # its length


def clean_place(value: object, field: str = "place") -> str:
    """An evening's place: NFC, single spaces, at most 80 characters (may be empty)."""
    if value is None:
        return ""
    return _clean_text(value, field, limit=PLACE_MAX, required=False)


def clean_season_name(value: object, field: str = "season") -> str:
    return _clean_text(value, field, limit=SEASON_NAME_MAX, required=True)


def clean_club_name(value: object, field: str = "club") -> str:
    return _clean_text(value, field, limit=CLUB_NAME_MAX, required=True)


def clean_tournament_name(value: object, field: str = "tournaments") -> str:
    """A new tournament's name: 1 to 50 characters, so that "name, round n, table t" fits."""
    return _clean_text(value, field, limit=TOURNAMENT_NAME_MAX, required=True)


def fitted(template: str, values: dict[str, object], *, cut: str, limit: int) -> str:
    """``template % values`` within ``limit`` characters: the text of ``values[cut]`` is
    shortened (and ends with "…") when the whole would be longer; the rest is kept whole."""
    whole = template % values
    if len(whole) <= limit:
        return whole
    room = limit - len(template % {**values, cut: ""}) - 1
    return template % {**values, cut: str(values[cut])[: max(room, 0)].rstrip() + "…"}


def name_key(name: str) -> str:
    """What two names must share to be one player: the NFC text, case folded."""
    return unicodedata.normalize("NFC", " ".join(name.split())).casefold()


def clean_date(value: object, field: str = "date") -> dt.date:
    """A date (a ``datetime.date`` or ``YYYY-MM-DD`` text) between 1900 and 2999."""
    if isinstance(value, dt.datetime):
        value = value.date()
    if isinstance(value, str):
        with contextlib.suppress(ValueError):  # else refused below, as any other value
            value = dt.date.fromisoformat(value.strip())
    if not isinstance(value, dt.date):
        raise ScoringError.coded(
            field, "not_date", "%(value)s is not a date (YYYY-MM-DD)", value=repr(value)
        )
    if not FIRST_YEAR <= value.year <= LAST_YEAR:
        raise ScoringError.coded(
            field,
            "date_range",
            "%(value)s is not between the years %(first)s and %(last)s",
            value=value.isoformat(),
            first=FIRST_YEAR,
            last=LAST_YEAR,
        )
    return value
