"""A row of French Tarot's standings reads as the season page shows it: rank, the player's
name (escaped) linked to his page, the total marked won or lost, the counts, the average,
and the evening points when the club counts them."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from scorekeeper import services
from scorekeeper.reads.standings import StandingRow
from scorekeeper.scoring.tarot import TarotDeal
from scorekeeper.screens.standings import shown_rows
from tests.factories import make_club, start_evening


def drawn(row: StandingRow, language: str = "en", points: object = None) -> str:
    """The row as the standings table draws it, worded by the screen in that language."""
    with translation.override(language):
        (shown,) = shown_rows([row], 4, "season=3&sort=total", points is not None)
        html = render_to_string(
            "scorekeeper/seasons/_standings_table.html#standing_row", {"row": shown}
        )
    return html.strip()


WON = StandingRow(
    player_id=7,
    name="Chloé <b>",
    total=12345,
    evenings=3,
    deals=40,
    takes=9,
    made=5,
    rank=1,
    evening_points=7.5,
)
LOST = StandingRow(
    player_id=8,
    name="Ben & co",
    total=-250,
    evenings=1,
    deals=3,
    takes=0,
    made=0,
    rank=2,
    evening_points=2.0,
)


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
def test_a_standings_row_shows_rank_name_total_counts_and_average(language) -> None:
    url = reverse("player", args=[4, 7]) + "?season=3&amp;sort=total"
    average = f"{WON.average:.1f}".replace(".", "." if language == "en" else ",")
    expected = (
        f'<tr><td class="rank">1</td><td class="player-name"><a href="{url}">Chloé &lt;b&gt;</a>'
        '</td><td class="positive"><strong>12345</strong></td><td>3</td><td>40</td><td>9</td>'
        "<td>5</td>"
    )
    row = drawn(WON, language)
    assert row.startswith(expected)
    assert row.endswith(f"<td>{average}</td></tr>")
    assert "7.5" not in row and "7,5" not in row  # no evening points column


def test_a_lost_total_is_marked_and_a_name_escaped() -> None:
    row = drawn(LOST)
    assert '<td class="negative"><strong>-250</strong></td>' in row
    assert ">Ben &amp; co</a>" in row


def test_a_player_without_deals_has_no_average_and_no_mark() -> None:
    row = drawn(StandingRow(player_id=9, name="Dan", rank=3))
    assert '<td class=""><strong>0</strong></td>' in row
    assert row.endswith("<td>–</td></tr>")


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
def test_evening_points_get_their_column_when_the_club_counts_them(language) -> None:
    decimal = "." if language == "en" else ","
    assert drawn(WON, language, points=[5, 3, 1]).endswith(f"<td>7{decimal}5</td></tr>")
    assert drawn(LOST, language, points=[5, 3, 1]).endswith("<td>2</td></tr>")


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
def test_with_the_thousand_separator_on_a_total_is_grouped(settings, language) -> None:
    settings.USE_THOUSAND_SEPARATOR = True
    row = drawn(StandingRow(player_id=7, name="Ana", total=-12345, deals=1500, rank=1), language)
    assert "12345" not in row and "1500" not in row


@pytest.mark.django_db
def test_after_a_save_the_season_page_shows_the_new_totals(client) -> None:
    club, players = make_club(players=["Ana", "Ben", "Chloé", "Dan", "Eve"])
    evening, game = start_evening(club, players[:4])
    season = services.season_create(
        club=club, name="Saison", start=evening.date, end=evening.date.replace(month=12, day=31)
    )
    client.force_login(club.memberships.get(role="owner").user)
    ids = tuple(player.pk for player in players[:4])

    def deal() -> None:
        services.deal_record(
            game=game,
            inputs=TarotDeal(seated=ids, taker=ids[0], contract="garde", bouts=2, points=50),
        )

    url = reverse("season", args=[club.pk, season.pk])
    deal()
    first = client.get(url).content.decode()
    deal()
    second = client.get(url).content.decode()
    for text in (first, second):
        assert '<td class="positive"><strong>' in text and '<td class="negative"><strong>' in text
    total = re.search(r'class="positive"><strong>(\d+)<', first)[1]
    assert f'class="positive"><strong>{2 * int(total)}<' in second
