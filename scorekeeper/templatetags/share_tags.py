"""QR codes drawn on the server as inline SVG (segno), to show a link across the table."""

from __future__ import annotations

import segno
from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def qr_svg(text: str, label: str = "") -> SafeString:
    """An ``<svg class="qr-code">`` of ``text``, black on white, error correction M."""
    code = segno.make(text, error="m", micro=False)
    svg = code.svg_inline(
        scale=1,
        border=4,
        dark="#000000",
        light="#ffffff",
        omitsize=True,
        svgclass="qr-code",
        title=label or None,
    )
    # segno escapes the title and writes only paths with fill/stroke attributes (no style).
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))
