"""Template helpers for the deal form's forty choices, built with plain string operations
(every value escaped): Django's widget templates cost more than the rest of the page."""

from __future__ import annotations

from html import escape
from typing import Any

from django import forms, template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from scorekeeper.models import CHELEM_CHOICES, PETIT_AU_BOUT_CHOICES, POIGNEE_LABELS
from scorekeeper.screens.table.bid_grid import MARKS
from scorekeeper.server.wording import labelled, sign_class

register = template.Library()


def _e(value: object) -> str:
    return escape(str(value), quote=True)


@register.simple_tag
def choice_inputs(field: forms.BoundField) -> SafeString:
    """A radio or checkbox group as tappable pills: <label class="choice"><input><span>."""
    widget = field.field.widget
    kind = "checkbox" if isinstance(widget, forms.CheckboxSelectMultiple) else "radio"
    value = field.value()
    chosen = {str(v) for v in value} if isinstance(value, list | tuple) else {str(value)}
    name = _e(field.html_name)
    base_id = _e(field.auto_id)
    parts = []
    for index, (option, label) in enumerate(field.field.choices):
        checked = " checked" if str(option) in chosen else ""
        parts.append(
            f'<label class="choice"><input type="{kind}" name="{name}" value="{_e(option)}"'
            f' id="{base_id}_{index}"{checked}><span>{_e(label)}</span></label>'
        )
    return mark_safe("".join(parts))  # every value above is escaped


@register.simple_tag
def choice_group(field: forms.BoundField) -> SafeString:
    """A whole group of pills: fieldset, legend, the choices, the errors and the help."""
    errors = field.errors
    error_list = (
        '<ul class="errorlist">' + "".join(f"<li>{_e(e)}</li>" for e in errors) + "</ul>"
        if errors
        else ""
    )
    help_text = f'<p class="field-help">{_e(field.help_text)}</p>' if field.help_text else ""
    css = "choices field-error" if errors else "choices"
    return mark_safe(  # every value is escaped
        f'<fieldset class="{css}" id="{_e(field.auto_id)}-group">'
        f"<legend>{_e(field.label)}</legend>{choice_inputs(field)}{error_list}{help_text}</fieldset>"
    )


@register.simple_tag
def select_input(field: forms.BoundField) -> SafeString:
    """A plain <select> for a choice field, without a template per option."""
    value = str(field.value())
    options = "".join(
        f'<option value="{_e(option)}"{" selected" if str(option) == value else ""}>'
        f"{_e(label)}</option>"
        for option, label in field.field.choices
    )
    return mark_safe(  # every value is escaped
        f'<select name="{_e(field.html_name)}" id="{_e(field.auto_id)}">{options}</select>'
    )


@register.simple_tag
def signed(score: int | None) -> SafeString:
    """A score cell of the sheet: coloured by its sign, a dot when the player was away."""
    if score is None:
        return mark_safe('<td class="absent">·</td>')
    css = sign_class(score)
    return mark_safe(f'<td class="{css}">{int(score)}</td>')  # an integer


@register.simple_tag
def sheet_cell(score: int | None, total: int) -> SafeString:
    """A score cell of the sheet with the player's running total under the deal's score."""
    running = (
        f'<span class="running"><span class="visually-hidden">{_e(gettext("total"))} </span>'
        f"{int(total)}</span>"
    )
    if score is None:
        return mark_safe(f'<td class="absent"><span class="deal-score">·</span>{running}</td>')
    css = sign_class(score)
    return mark_safe(  # integers and an escaped word
        f'<td class="{css}"><span class="deal-score">{int(score)}</span>{running}</td>'
    )


@register.simple_tag
def contract_short(contract: str) -> str:
    """A contract in the short form a score sheet writes it: P, G, GS, GC."""
    short = MARKS.get(contract)  # the bid grid's letters, translated when written
    return str(short) if short is not None else contract


@register.simple_tag
def deal_marks(deal: Any) -> SafeString:
    """The bonuses of a deal in words: petit au bout, poignées, chelem (the sheet's marks)."""
    marks = []
    if deal.petit_au_bout:
        side = dict(PETIT_AU_BOUT_CHOICES).get(deal.petit_au_bout, deal.petit_au_bout)
        marks.append(labelled(gettext("Petit au bout"), side))
    for kind in deal.poignees or ():
        marks.append(str(POIGNEE_LABELS.get(kind, kind)))
    if deal.chelem:
        chelem = dict(CHELEM_CHOICES).get(deal.chelem, deal.chelem)
        marks.append(labelled(gettext("Chelem"), chelem))
    if not marks:
        return mark_safe("")
    items = "".join(f'<span class="mark">{_e(mark)}</span>' for mark in marks)
    return mark_safe(f'<span class="marks">{items}</span>')  # every mark is escaped
