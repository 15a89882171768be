"""The ratings' rows and the point flow's players are drawn in Python (``rating_row``,
``flow_player``): the same markup the templates drew, once for what they show."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.utils import translation

from scorekeeper.reads.figures_pages import FlowLine, PlayerFlow, RatingRow
from scorekeeper.templatetags import drawn_once
from tests.scorekeeper.screens.drawn_markup import drawn_both_ways, squeezed

# The markup as the templates drew it before the tags.
RATING_ROW = """<tr>
  {% if page.worth_showing %}<td class="rank">{{ row.rank }}</td>{% endif %}
  <td class="player-name">
    <a href="{% url 'player' club.pk row.player_id %}?{{ scope_query }}">{{ row.name }}</a>
  </td>
  <td><strong>{{ row.conservative|floatformat:1 }}</strong></td>
  <td>± {{ row.sigma|floatformat:1 }}</td>
  <td>{{ row.deals }}</td>
</tr>"""
FLOW_PLAYER = """{% load i18n %}
<section class="flow-player" aria-labelledby="flow-{{ player.player_id }}">
  <h3 id="flow-{{ player.player_id }}"><span>{{ player.name }}</span>
  <span class="value {% if player.balance > 0 %}positive{% elif player.balance < 0 %}negative{% endif %}">{{ player.balance|stringformat:"+d" }}</span></h3>
  <ul class="flow-list" aria-label="{% blocktranslate trimmed with name=player.name %}{{ name }} against each player{% endblocktranslate %}">
    {% for line in player.lines %}<li><span>{{ line.other }}</span> <span class="value{% if line.net > 0 %} positive{% elif line.net < 0 %} negative{% endif %}">{{ line.net|stringformat:"+d" }}</span></li>{% endfor %}
  </ul>
</section>"""  # noqa: E501

RATING_ROWS = [
    RatingRow(player_id=7, name="Chloé <b>", conservative=12.345, mu=30.0, sigma=5.96, deals=1234),
    RatingRow(
        player_id=8, name="Ben & co", conservative=-3.05, mu=20.0, sigma=7.5, deals=20, rank=2
    ),
]
FLOW_PLAYERS = [
    PlayerFlow(
        player_id=3,
        name="Ana <i>",
        balance=125,
        lines=[FlowLine(4, "Ben & co", 150), FlowLine(5, "Dan", -25), FlowLine(6, "Eve", 0)],
    ),
    PlayerFlow(player_id=4, name="Ben & co", balance=-150, lines=[FlowLine(3, "Ana <i>", -150)]),
    PlayerFlow(player_id=6, name="Eve", balance=0, lines=[]),
]


@pytest.fixture(autouse=True)
def _nothing_kept() -> None:
    drawn_once._memos.clear()


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
@pytest.mark.parametrize("row", RATING_ROWS)
@pytest.mark.parametrize("worth_showing", [True, False])
def test_a_rating_row_reads_as_the_template_drew_it(row, worth_showing, language) -> None:
    page = SimpleNamespace(worth_showing=worth_showing)
    context = {
        "row": row,
        "club": SimpleNamespace(pk=4),
        "scope_query": "season=3",
        # As the view gives it: the page is built when the template first asks for it.
        "page": functools.cache(lambda: page),
    }
    expected, drawn = drawn_both_ways(RATING_ROW, "{% rating_row row %}", context, language)
    assert squeezed(drawn) == squeezed(expected)
    assert ('class="rank"' in drawn) is worth_showing


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
@pytest.mark.parametrize("player", FLOW_PLAYERS)
def test_a_players_point_flow_reads_as_the_template_drew_it(player, language) -> None:
    context = {"player": player}
    expected, drawn = drawn_both_ways(FLOW_PLAYER, "{% flow_player player %}", context, language)
    assert squeezed(drawn) == squeezed(expected)
    assert ("<i>" not in drawn and "&lt;i&gt;" in drawn) or player.name == "Eve"


def test_a_flow_that_did_not_move_is_not_drawn_again(monkeypatch) -> None:
    drawn: list[str] = []
    keep = drawn_once._flow_player
    monkeypatch.setattr(drawn_once, "_flow_player", lambda p: (drawn.append(p.name), keep(p))[1])
    tag = Template("{% load drawn_once %}{% for p in players %}{% flow_player p %}{% endfor %}")
    with translation.override("en"):
        first = tag.render(Context({"players": FLOW_PLAYERS}))
        moved = [FLOW_PLAYERS[0], PlayerFlow(4, "Ben & co", -100, []), FLOW_PLAYERS[2]]
        second = tag.render(Context({"players": moved}))
    assert drawn == ["Ana <i>", "Ben & co", "Eve", "Ben & co"]  # only Ben's again
    assert first != second
