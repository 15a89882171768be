"""The ratings' rows and the point flow's players read as their pages show them: names
escaped, the rank only when the ratings are worth showing, balances signed and marked won
or lost, and the flow's list named in the reader's language."""

from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from scorekeeper.reads.figures_pages import PlayerFlow, RatingRow, RatingsPage, flow_line


def drawn(template: str, context: dict[str, Any], language: str = "en") -> str:
    """The include drawn in ``language``."""
    with translation.override(language):
        html = render_to_string(f"scorekeeper/figures/{template}", context)
    return html.strip()


def rating_row(row: RatingRow, worth_showing: bool, language: str = "en") -> str:
    quality = SimpleNamespace(beats_base_rate=worth_showing)
    page = RatingsPage([row], [], quality, None)  # type: ignore[arg-type]
    context = {
        "scope_query": "season=3",
        # As the view gives it: the page is built when the template first asks for it.
        "page": functools.cache(lambda: page),
    }
    return drawn("_rating_rows.html", context, language)


CHLOE = RatingRow(
    player_id=7, name="Chloé <b>", conservative=12.345, sigma=5.96, deals=1, url="/p/7/"
)
BEN = RatingRow(
    player_id=8,
    name="Ben & co",
    conservative=-3.04,
    sigma=7.5,
    deals=20,
    rank=2,
    url=reverse("player", args=[4, 8]),
)


@pytest.mark.parametrize("language", ["fr", "en", "ru"])
def test_a_rating_row_shows_the_rank_name_rating_uncertainty_and_deals(language) -> None:
    comma = "." if language == "en" else ","
    url = reverse("player", args=[4, 8]) + "?season=3"
    assert rating_row(BEN, True, language) == (
        f'<tr><td class="rank">2</td><td class="player-name"><a href="{url}">Ben &amp; co</a></td>'
        f"<td><strong>-3{comma}0</strong></td><td>± 7{comma}5</td><td>20</td></tr>"
    )
    assert ">Chloé &lt;b&gt;</a>" in rating_row(CHLOE, True, language)


def test_ratings_not_worth_showing_have_no_rank() -> None:
    assert 'class="rank"' in rating_row(BEN, True)
    assert 'class="rank"' not in rating_row(BEN, False)


ANA = PlayerFlow(
    player_id=3,
    name="Ana <i>",
    balance=125,
    lines=[flow_line("Ben & co", 150), flow_line("Dan", -25), flow_line("Eve", 0)],
)


def flow_players(*players: PlayerFlow, language: str = "en") -> str:
    return drawn("_flow_players.html", {"page": SimpleNamespace(players=players)}, language)


def test_a_players_flow_signs_and_marks_his_balance_and_each_line() -> None:
    flow = flow_players(ANA)
    assert flow.startswith(
        '<section class="flow-player" aria-labelledby="flow-3"><h3 id="flow-3">'
        '<span>Ana &lt;i&gt;</span> <span class="value positive">+125</span></h3>'
    )
    assert (
        '<li><span>Ben &amp; co</span> <span class="value positive">+150</span></li>'
        '<li><span>Dan</span> <span class="value negative">-25</span></li>'
        '<li><span>Eve</span> <span class="value">+0</span></li></ul></section>'
    ) in flow
    assert "No deal has been played" not in flow
    assert "No deal has been played in this range yet." in flow_players()
    lost = flow_players(PlayerFlow(4, "Ben", -150, []))
    assert '<span class="value negative">-150</span>' in lost


@pytest.mark.parametrize(
    ("language", "label"),
    [("en", "Ana &lt;i&gt; against each player"), ("fr", "Ana &lt;i&gt;")],
)
def test_a_players_flow_list_is_named_in_the_readers_language(language, label) -> None:
    flow = flow_players(ANA, language=language)
    assert f'<ul class="flow-list" aria-label="{label}' in flow
    assert "<i>" not in flow
