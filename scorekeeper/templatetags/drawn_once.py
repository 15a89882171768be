"""Rows drawn once for what they show, for the figures' pages: the season standings'
(``standing_row``), the ratings' (``rating_row``), the point flow's (``flow_player``) and the
other figures' (``memo``). The score sheet is drawn by plain includes (``_sheet_row.html``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from django import template
from django.conf import settings
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from scorekeeper.server.shared_cache import LocalMemo

register = template.Library()

_memos = LocalMemo(8192)


class MemoNode(template.Node):
    def __init__(self, nodelist: template.NodeList, values: list[template.base.FilterExpression]):
        self.nodelist = nodelist
        self.values = values

    def render(self, context: template.Context) -> str:
        name, *values = (value.resolve(context) for value in self.values)
        return _drawn_for(name, tuple(map(repr, values)), lambda: self.nodelist.render(context))


@register.tag
def memo(parser: template.base.Parser, token: template.base.Token) -> MemoNode:
    """``{% memo name value… %}…{% endmemo %}``: the block drawn once per language and the
    values' ``repr`` (frozen rows of figures), kept in this process. Every value the block
    reads must be named: a row that did not change after a save is not drawn again."""
    bits = token.split_contents()[1:]
    if not bits:
        raise template.TemplateSyntaxError("memo needs a name and the values the block reads")
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(nodelist, [parser.compile_filter(bit) for bit in bits])


@register.simple_tag(takes_context=True)
def standing_row(context: template.Context, row: Any) -> SafeString:
    """One player's row of French Tarot's standings (``seasons/_standings_table.html``), drawn
    once for what it shows: after a deal is saved only the rows that moved are drawn again.
    Written here rather than as a block of the template: a row costs a quarter of a
    millisecond through the template engine, and a save moves five of them."""
    season, query = context["season"], context.get("player_query", "")
    points = bool(context.get("standings_evening_points"))
    return _drawn_for(
        "standing",
        (repr(row), points, season.club_id, query),
        lambda: _standing_row(row, season.club_id, query, points),
    )


def _drawn_for(name: object, values: tuple[Hashable, ...], draw: Callable[[], str]) -> SafeString:
    """``draw()``'s markup, kept in this process under the language, ``name`` and ``values``
    (which name everything it reads): the ``{% memo %}`` blocks' and the rows drawn in Python
    (where format_html escapes every value)."""
    key = (get_language(), repr(name), *values)
    drawn = _memos.get(key)
    if drawn is None:
        drawn = draw()
        _memos.set(key, drawn)
    return mark_safe(drawn)


def _whole(value: int) -> str:
    """A whole number as ``{{ value }}`` writes it: localized, which without the thousand
    separator setting is its digits (Django's own shortcut for integers)."""
    return localize(value) if settings.USE_THOUSAND_SEPARATOR else str(value)


def _standing_row(row: Any, club_id: int, query: str, points: bool) -> str:
    css = "positive" if row.total > 0 else "negative" if row.total < 0 else ""
    average = "–" if row.average is None else floatformat(row.average, 1)
    cells = format_html(
        '<tr><td class="rank">{}</td>'
        '<td class="player-name"><a href="{}?{}">{}</a></td>'
        '<td class="{}"><strong>{}</strong></td>'
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
        _whole(row.rank),
        reverse("player", args=[club_id, row.player_id]),
        query,
        row.name,
        css,
        _whole(row.total),
        _whole(row.evenings),
        _whole(row.deals),
        _whole(row.takes),
        _whole(row.made),
        average,
    )
    if points:
        cells += format_html("<td>{}</td>", floatformat(row.evening_points, "-1"))
    return cells + "</tr>"


@register.simple_tag(takes_context=True)
def rating_row(context: template.Context, row: Any) -> SafeString:
    """One player's row of the ratings (``figures/ratings.html``), drawn once for what it
    shows; the rank only when the ratings are worth showing."""
    ranked = bool(template.Variable("page.worth_showing").resolve(context))  # page: a callable
    club_id, query = context["club"].pk, context.get("scope_query", "")
    return _drawn_for(
        "rating",
        (repr(row), ranked, club_id, query),
        lambda: _rating_row(row, ranked, club_id, query),
    )


def _rating_row(row: Any, ranked: bool, club_id: int, query: str) -> str:
    rank = format_html('<td class="rank">{}</td>', _whole(row.rank)) if ranked else ""
    return format_html(
        '<tr>{}<td class="player-name"><a href="{}?{}">{}</a></td>'
        "<td><strong>{}</strong></td><td>± {}</td><td>{}</td></tr>",
        rank,
        reverse("player", args=[club_id, row.player_id]),
        query,
        row.name,
        floatformat(row.conservative, 1),
        floatformat(row.sigma, 1),
        _whole(row.deals),
    )


@register.simple_tag
def flow_player(player: Any) -> SafeString:
    """One player's point flow (``figures/head_to_head.html``): his balance, then what he won
    from or lost to each other player; drawn once for what it shows."""
    return _drawn_for("flow", (repr(player),), lambda: _flow_player(player))


def _signed_css(value: int) -> str:
    return " positive" if value > 0 else " negative" if value < 0 else ""


def _flow_player(player: Any) -> str:
    label = gettext("%(name)s against each player") % {"name": escape(player.name)}
    lines = "".join(
        format_html(
            '<li><span>{}</span> <span class="value{}">{}</span></li>',
            line.other,
            _signed_css(line.net),
            format(line.net, "+d"),
        )
        for line in player.lines
    )
    return format_html(
        '<section class="flow-player" aria-labelledby="flow-{}">'
        '<h3 id="flow-{}"><span>{}</span> <span class="value {}">{}</span></h3>'
        '<ul class="flow-list" aria-label="{}">{}</ul></section>',
        player.player_id,
        player.player_id,
        player.name,
        _signed_css(player.balance).strip(),
        format(player.balance, "+d"),
        mark_safe(label),  # the name escaped, as {% blocktranslate %} does
        mark_safe(lines),
    )
