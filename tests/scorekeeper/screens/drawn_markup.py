"""A row drawn by a ``drawn_once`` tag beside the template markup it replaced: both drawn in
one language, compared with the whitespace between tags left out."""

from __future__ import annotations

import re
from typing import Any

from django.template import Context, Template
from django.utils import translation


def squeezed(html: str) -> str:
    """The markup without the whitespace between its tags (the template's indentation)."""
    return re.sub(r">\s+<", "><", html.strip())


def drawn_both_ways(
    template_text: str, tag: str, context: dict[str, Any], language: str
) -> tuple[str, str]:
    """(the old template's markup, the tag's), drawn in ``language`` from ``context``."""
    with translation.override(language):
        expected = Template(template_text).render(Context(context))
        drawn = Template("{% load drawn_once %}" + tag).render(Context(context))
    return expected, drawn
