"""Small rules of wording shared by every page: names in the order a reader expects, and a
label put before its value with the language's own colon.

``name_order`` sorts as a dictionary does, in French as in English: accents and case do not
move a name ("Élise" comes before "Paul", "émile" beside "Emile"); only between two names
equal that way do they decide, so the order is the same on every page and every run. No ICU
and no system locale: the same on every server.
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
