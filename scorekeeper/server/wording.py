"""Small rules of wording shared by every page: names in dictionary order (accents and case
decide only between names otherwise equal; no ICU, no system locale), a label put
before its value with the language's own colon, and a figure's class by its sign.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext, pgettext


def name_order(name: str) -> tuple[str, str]:
    """The sort key of a name: its letters without accents, case folded, then the name
    case folded as a tie-break."""
    folded = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(char for char in folded if not unicodedata.combining(char))
    return unicodedata.normalize("NFC", bare), unicodedata.normalize("NFC", name.casefold())


def labelled(label: object, value: object) -> str:
    """ "Label: value" in the active language ("Libellé : valeur" in French, with a narrow
    no-break space before the colon)."""
    return gettext("%(label)s: %(value)s") % {"label": label, "value": value}


def short_date_format() -> str:
    """The day and the short month, as the language writes them: "1 Dec", "1 déc.", "1 дек"
    (months in lower case in French and Russian)."""
    return pgettext("date format: the day and the short month", "j M")


def sign_class(value: float) -> str:
    """The class of a signed figure: "positive" (won), "negative" (lost) or "" (neither)."""
    return "positive" if value > 0 else "negative" if value < 0 else ""
