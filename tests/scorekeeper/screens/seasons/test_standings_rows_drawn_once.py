"""The season's standings draw again, after a save, only the players' rows that moved."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.reads.standings import StandingRow
from scorekeeper.scoring.tarot import TarotDeal
from scorekeeper.templatetags import drawn_once
from tests.factories import make_club, start_evening
from tests.scorekeeper.screens.drawn_markup import drawn_both_ways, squeezed


@pytest.mark.django_db
def test_after_a_save_the_standings_draw_only_the_rows_that_moved(client, monkeypatch) -> None:
    club, players = make_club(players=["Ana", "Ben", "Chloé", "Dan", "Eve"])
    evening, game = start_evening(club, players[:4])
    season = services.season_create(
        club=club, name="Saison", start=evening.date, end=evening.date.replace(month=12, day=31)
    )
    client.force_login(club.memberships.get(role="owner").user)
    ids = tuple(player.pk for player in players[:4])

    def deal(taker: int) -> None:
        services.deal_record(
            game=game,
            inputs=TarotDeal(seated=ids, taker=ids[taker], contract="garde", bouts=2, points=50),
        )

    deal(0)
    url = reverse("season", args=[club.pk, season.pk])
    assert client.get(url).status_code == 200
    drawn: list[object] = []
    keep = drawn_once._memos.set
    monkeypatch.setattr(
        drawn_once._memos, "set", lambda key, value: (drawn.append(key[1]), keep(key, value))
    )
    deal(0)  # Ana's and the others' totals move: each of their rows is drawn again
    assert client.get(url).status_code == 200
    assert drawn.count(repr("standing")) == 4
    drawn.clear()
    assert client.get(url).status_code == 200  # nothing moved: nothing drawn
    assert drawn == []


# The row as the template drew it before ``standing_row`` drew it in Python.
TEMPLATE_ROW = """{% load i18n %}<tr>
  <td class="rank">{{ row.rank }}</td>
  <td class="player-name">
    <a href="{% url 'player' season.club_id row.player_id %}?{{ player_query }}">{{ row.name }}</a>
  </td>
  <td class="{% if row.total > 0 %}positive{% elif row.total < 0 %}negative{% endif %}">
    <strong>{{ row.total }}</strong>
  </td>
  <td>{{ row.evenings }}</td>
  <td>{{ row.deals }}</td>
  <td>{{ row.takes }}</td>
  <td>{{ row.made }}</td>
  <td>{% if row.average is not None %}{{ row.average|floatformat:1 }}{% else %}–{% endif %}</td>
  {% if standings_evening_points %}<td>{{ row.evening_points|floatformat:"-1" }}</td>{% endif %}
</tr>"""


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
@pytest.mark.parametrize(
    "row",
    [
        StandingRow(
            player_id=7,
            name="Chloé <b>",
            total=12345,
            evenings=3,
            deals=40,
            takes=9,
            made=5,
            rank=1,
            evening_points=7.5,
        ),
        StandingRow(
            player_id=8,
            name="Ben & co",
            total=-250,
            evenings=1,
            deals=3,
            takes=0,
            made=0,
            rank=2,
            evening_points=2.0,
        ),
        StandingRow(player_id=9, name="Dan", rank=3),  # no deal: no average
    ],
)
@pytest.mark.parametrize("points", [None, [5, 3, 1]])
def test_a_standings_row_reads_as_the_template_drew_it(row, points, language) -> None:
    season = SimpleNamespace(club_id=4)
    context = {
        "row": row,
        "season": season,
        "player_query": "season=3&sort=total",
        "standings_evening_points": points,
    }
    expected, drawn = drawn_both_ways(TEMPLATE_ROW, "{% standing_row row %}", context, language)
    assert squeezed(drawn) == squeezed(expected)
    assert "&lt;b&gt;" in drawn or "&amp; co" in drawn or row.name == "Dan"


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
def test_with_the_thousand_separator_on_a_row_is_grouped_as_the_template_groups_it(
    settings, language
) -> None:
    settings.USE_THOUSAND_SEPARATOR = True
    row = StandingRow(player_id=7, name="Ana", total=-12345, evenings=2, deals=1500, rank=1)
    context = {"row": row, "season": SimpleNamespace(club_id=4), "player_query": "season=3"}
    expected, drawn = drawn_both_ways(TEMPLATE_ROW, "{% standing_row row %}", context, language)
    assert squeezed(drawn) == squeezed(expected)
    assert "12345" not in drawn  # grouped
